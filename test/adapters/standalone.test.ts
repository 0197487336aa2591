import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStandaloneAdapter } from '../../lib/adapters/standalone.js';
import { SpawnError, type SpawnRequest } from '../../lib/core/spawn.js';
import { accept, agentNotFound, startFakeGateway } from '../helpers/fake-gateway.js';

const request: SpawnRequest = {
  id: 's1',
  taskId: 'TASK-2026-11-21-001',
  agent: 'dev',
  sessionId: 's1',
  prompt: 'Do the thing',
  task: { title: 'Thing', priority: 'normal', routing: { agent: 'dev' }, body: 'Brief' },
};

const spawn = suite('adapters.standalone');

spawn('posts sessions_spawn with the bearer token and the task prompt', async () => {
  const gateway = await startFakeGateway();
  try {
    const adapter = createStandaloneAdapter({ gatewayUrl: () => gateway.url, token: () => 'secret-token' });
    await adapter.spawn(request);
    assert.equal(gateway.calls, [
      {
        authorization: 'Bearer secret-token',
        body: { tool: 'sessions_spawn', args: { agentId: 'dev', task: 'Do the thing', label: 'TASK-2026-11-21-001' } },
      },
    ]);
  } finally {
    await gateway.close();
  }
});

spawn('maps Agent not found, ok:false and HTTP errors to failure reasons', async () => {
  const gateway = await startFakeGateway(agentNotFound);
  const adapter = createStandaloneAdapter({ gatewayUrl: () => gateway.url, token: () => 't' });
  const reasonOf = async () =>
    adapter.spawn(request).then(
      () => 'accepted',
      (err: unknown) => (err instanceof SpawnError ? err.reason : String(err)),
    );
  try {
    assert.is(await reasonOf(), 'agent_unavailable');
    gateway.answer(() => ({ status: 200, body: { ok: false, error: { message: 'tool not allowed' } } }));
    assert.is(await reasonOf(), 'gateway_error');
    gateway.answer(() => ({ status: 401, body: { error: 'unauthorized' } }));
    assert.is(await reasonOf(), 'gateway_unauthorized');
    gateway.answer(() => ({
      status: 200,
      body: { ok: true, result: { details: { status: 'error', error: 'boom' } } },
    }));
    assert.is(await reasonOf(), 'gateway_error');
  } finally {
    await gateway.close();
  }
  assert.is(await reasonOf(), 'gateway_unreachable');
});

spawn(
  "stop cancels the gateway's running background tasks labelled with the task id, and only for a task it spawned",
  async () => {
    const tasks = [
      { taskId: 'g1', label: request.taskId, status: 'running' },
      { taskId: 'g2', label: request.taskId, status: 'succeeded' },
      { taskId: 'g3', label: 'TASK-2026-11-21-002', status: 'running' },
    ];
    const gateway = await startFakeGateway((call) => {
      if (call.body.tool !== 'subagents') return accept(call);
      if (call.body.args?.action === 'list')
        return { status: 200, body: { ok: true, result: { details: { status: 'ok', tasks } } } };
      return {
        status: 200,
        body: {
          ok: true,
          result: { details: { status: 'cancelled', taskId: call.body.args?.taskId, found: true, cancelled: true } },
        },
      };
    });
    try {
      const adapter = createStandaloneAdapter({ gatewayUrl: () => gateway.url, token: () => 't' });
      assert.is(adapter.stop(request.taskId), null, 'never spawned here: nothing to ask');
      await adapter.spawn(request);
      assert.is(await adapter.stop(request.taskId), 'gateway task g1 cancelled');
      assert.equal(
        gateway.calls.slice(1).map((c) => c.body),
        [
          { tool: 'subagents', args: { action: 'list' } },
          { tool: 'subagents', args: { action: 'cancel', taskId: 'g1' } },
        ],
      );
      assert.is(adapter.stop(request.taskId), null, 'asked once per spawn');
    } finally {
      await gateway.close();
    }
  },
);

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
