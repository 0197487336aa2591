import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStandaloneAdapter } from '../../lib/adapters/standalone.js';
import { SpawnError, type SpawnRequest } from '../../lib/core/spawn.js';
import { agentNotFound, startFakeGateway } from '../helpers/fake-gateway.js';

const request: SpawnRequest = {
  id: 's1', taskId: 'TASK-2026-11-21-001', agent: 'dev', sessionId: 's1', prompt: 'Do the thing',
  task: { title: 'Thing', priority: 'normal', routing: { agent: 'dev' }, body: 'Brief' },
};

const spawn = suite('adapters.standalone');

spawn('posts sessions_spawn with the bearer token and the task prompt', async () => {
  const gateway = await startFakeGateway();
  try {
    const adapter = createStandaloneAdapter({ gatewayUrl: () => gateway.url, token: () => 'secret-token' });
    await adapter.spawn(request);
    assert.equal(gateway.calls, [{
      authorization: 'Bearer secret-token',
      body: { tool: 'sessions_spawn', args: { agentId: 'dev', task: 'Do the thing', label: 'TASK-2026-11-21-001' } },
    }]);
  } finally {
    await gateway.close();
  }
});

spawn('maps Agent not found, ok:false and HTTP errors to failure reasons', async () => {
  const gateway = await startFakeGateway(agentNotFound);
  const adapter = createStandaloneAdapter({ gatewayUrl: () => gateway.url, token: () => 't' });
  const reasonOf = async () => adapter.spawn(request).then(() => 'accepted', (err: unknown) => (err instanceof SpawnError ? err.reason : String(err)));
  try {
    assert.is(await reasonOf(), 'agent_unavailable');
    gateway.answer(() => ({ status: 200, body: { ok: false, error: { message: 'tool not allowed' } } }));
    assert.is(await reasonOf(), 'gateway_error');
    gateway.answer(() => ({ status: 401, body: { error: 'unauthorized' } }));
    assert.is(await reasonOf(), 'gateway_unauthorized');
    gateway.answer(() => ({ status: 200, body: { ok: true, result: { details: { status: 'error', error: 'boom' } } } }));
    assert.is(await reasonOf(), 'gateway_error');
  } finally {
    await gateway.close();
  }
  assert.is(await reasonOf(), 'gateway_unreachable');
});

spawn('refuses to dispatch without a gateway URL', async () => {
  const adapter = createStandaloneAdapter({ gatewayUrl: () => undefined, token: () => undefined });
  try {
    await adapter.spawn(request);
    assert.unreachable();
  } catch (err) {
    assert.is((err as SpawnError).reason, 'no_gateway');
  }
});

spawn.run();
