import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readTaskUsage } from '../../lib/store/changes/usage.js';
import { cleanRoots } from '../helpers/root.js';
import { inProgressTask, rejects, setup, snapshot } from './helpers.js';

const ORG = `schemaVersion: 1
agents:
  - { id: dev, name: Developer, command: [./run.sh] }
  - { id: bot, name: Gateway bot }
aof:
  pricing:
    local-7b: { inputUsdPerMTok: 1, outputUsdPerMTok: 2 }
`;

const usage = suite('tools.svc_task_update usage');
usage.after.each(cleanRoots);

usage('a command agent reports its spend: priced by aof.pricing, added to the task, logged as run.usage', async () => {
  const { call, store, events } = setup({ org: ORG });
  const { id, sessionId } = await inProgressTask(store);
  const spent = { inputTokens: 500_000, outputTokens: 100_000, cacheReadTokens: 200_000, model: 'local-7b' };
  await call('svc_task_update', { taskId: id, actor: 'dev', sessionId, usage: spent });
  await call('svc_task_update', { taskId: id, actor: 'dev', sessionId, usage: { inputTokens: 10, outputTokens: 0 } });
  const total = readTaskUsage((await store.get(id)).task.metadata);
  assert.equal(total, {
    inputTokens: 500_010,
    outputTokens: 100_000,
    cacheReadTokens: 200_000,
    cacheWriteTokens: 0,
    costUsd: null,
    runs: 2,
    lastRun: `${sessionId}-report-2`,
  });
  const reported = (await events()).filter((event) => event.type === 'run.usage').map((event) => event.payload);
  assert.equal(reported[0], {
    agent: 'dev',
    runtime: 'command',
    model: 'local-7b',
    sessionId: null,
    run: `${sessionId}-report-1`,
    inputTokens: 500_000,
    outputTokens: 100_000,
    cacheReadTokens: 200_000,
    cacheWriteTokens: 0,
    costUsd: 0.9,
  });
  assert.is(reported[1]!.costUsd, null, 'no model and no cost: unknown');
});

usage("the cost a run reports counts when its model has no price; a gateway agent's runtime is gateway", async () => {
  const { call, store, events } = setup({ org: ORG });
  const { id, sessionId } = await inProgressTask(store, { agent: 'bot' });
  await call('svc_task_update', { taskId: id, sessionId, usage: { inputTokens: 1, outputTokens: 2, costUsd: 0.25 } });
  const [reported] = (await events()).filter((event) => event.type === 'run.usage');
  assert.is(reported!.payload.agent, 'bot', "the lease's agent when no actor is named");
  assert.is(reported!.payload.runtime, 'gateway');
  assert.is(readTaskUsage((await store.get(id)).task.metadata)!.costUsd, 0.25);
});

usage('a usage of the wrong shape is refused with what was expected, and changes nothing', async () => {
  const { call, store, root } = setup({ org: ORG });
  const { id, sessionId } = await inProgressTask(store);
  const before = snapshot(root);
  const bad: [unknown, string][] = [
    [{ inputTokens: -1, outputTokens: 0 }, 'must be 0 or more'],
    [{ inputTokens: 1.5, outputTokens: 0 }, 'whole number'],
    [{ inputTokens: 1 }, 'outputTokens'],
    [{ inputTokens: 1, outputTokens: 1, dollars: 3 }, 'known: inputTokens, outputTokens'],
    [{ inputTokens: 1, outputTokens: 1, costUsd: -2 }, 'costUsd'],
    ['lots', 'usage'],
  ];
  for (const [value, part] of bad)
    await rejects(call('svc_task_update', { taskId: id, sessionId, usage: value }), 'validation_error', part);
  assert.equal(snapshot(root), before);
});

usage('a report from a session that no longer holds the task is refused and not counted', async () => {
  const { call, store, root } = setup({ org: ORG });
  const { id } = await inProgressTask(store);
  const before = snapshot(root);
  await rejects(
    call('svc_task_update', { taskId: id, sessionId: 'ended', usage: { inputTokens: 1, outputTokens: 1 } }),
    'stale_session',
  );
  assert.equal(snapshot(root), before);
});

usage.run();
