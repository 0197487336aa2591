import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Usage } from '../../../lib/core/usage.js';
import { archiveTasks } from '../../../lib/store/changes/archive.js';
import { cancelTask, setStatus } from '../../../lib/store/changes/ops.js';
import {
  readRuntimeSession,
  readTaskUsage,
  recordRunUsage,
  reportRunUsage,
  type RunUsageRecord,
} from '../../../lib/store/changes/usage.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { readEvents } from '../../../lib/store/events/log.js';
import { cleanRoots, fixedClock, tempRoot } from '../../helpers/root.js';
import { inProgressTask } from '../../tools/helpers.js';

const USAGE: Usage = {
  inputTokens: 1000,
  outputTokens: 200,
  cacheReadTokens: 3000,
  cacheWriteTokens: 40,
  costUsd: 0.25,
};

function setup() {
  const clock = fixedClock('2026-11-25T10:00:00Z');
  const store = createStore({ root: tempRoot(), clock });
  return { store, clock };
}

function toRecord(taskId: string, overrides: Partial<RunUsageRecord> = {}): RunUsageRecord {
  return {
    taskId,
    run: 'sess-1',
    agent: 'coder',
    runtime: 'claude-code',
    model: 'claude-sonnet-5',
    cliSession: 'cli-abc',
    usage: USAGE,
    ...overrides,
  };
}

const record = suite('store.recordRunUsage');
record.after.each(cleanRoots);

record('the first run sets the total, the session of its agent and logs run.usage', async () => {
  const { store } = setup();
  const { id } = await inProgressTask(store);
  const before = await store.get(id);
  assert.is(await recordRunUsage(store, toRecord(id)), true);
  const { task, status } = await store.get(id);
  assert.is(status, 'in-progress');
  assert.equal(task.metadata.usage, { ...USAGE, runs: 1, lastRun: 'sess-1' });
  assert.equal(task.metadata.runtimeSessions, {
    coder: { runtime: 'claude-code', id: 'cli-abc', at: '2026-11-25T10:00:00.000Z' },
  });
  assert.is(task.updatedAt, before.task.updatedAt, 'recording usage is not an edit of the task');
  assert.equal(task.lease, before.task.lease);
  const events = await readEvents(store.paths.root, { type: 'run.usage' });
  assert.is(events.length, 1);
  assert.is(events[0]!.taskId, id);
  assert.is(events[0]!.actor, 'coder');
  assert.equal(events[0]!.payload, {
    agent: 'coder',
    runtime: 'claude-code',
    model: 'claude-sonnet-5',
    sessionId: 'cli-abc',
    run: 'sess-1',
    ...USAGE,
  });
});

record('later runs add to the total; one unknown cost makes the total unknown for good', async () => {
  const { store } = setup();
  const { id } = await inProgressTask(store);
  await recordRunUsage(store, toRecord(id));
  await recordRunUsage(store, toRecord(id, { run: 'sess-2', usage: { ...USAGE, costUsd: 0.5 } }));
  let total = readTaskUsage((await store.get(id)).task.metadata);
  assert.equal(total, {
    inputTokens: 2000,
    outputTokens: 400,
    cacheReadTokens: 6000,
    cacheWriteTokens: 80,
    costUsd: 0.75,
    runs: 2,
    lastRun: 'sess-2',
  });
  await recordRunUsage(store, toRecord(id, { run: 'sess-3', usage: { ...USAGE, costUsd: null } }));
  await recordRunUsage(store, toRecord(id, { run: 'sess-4' }));
  total = readTaskUsage((await store.get(id)).task.metadata);
  assert.is(total!.costUsd, null);
  assert.is(total!.runs, 4);
  assert.is(total!.inputTokens, 4000);
});

record('the same run recorded again (a restarted daemon) changes nothing and logs nothing', async () => {
  const { store } = setup();
  const { id } = await inProgressTask(store);
  assert.is(await recordRunUsage(store, toRecord(id)), true);
  const file = await store.get(id);
  assert.is(await recordRunUsage(store, toRecord(id)), false);
  assert.equal((await store.get(id)).stamp, file.stamp);
  assert.is((await readEvents(store.paths.root, { type: 'run.usage' })).length, 1);
});

record('a task in any status is recorded: done, blocked, cancelled', async () => {
  const { store } = setup();
  for (const to of ['done', 'blocked', 'cancelled'] as const) {
    const { id, sessionId } = await inProgressTask(store);
    if (to === 'cancelled') await cancelTask(store, id, { actor: 'operator' });
    else await setStatus(store, id, { actor: 'dev', sessionId, to, reason: 'by hand' });
    assert.is(await recordRunUsage(store, toRecord(id)), true, to);
    const { task, status } = await store.get(id);
    assert.is(status, to);
    assert.is(readTaskUsage(task.metadata)!.runs, 1);
  }
});

record('an archived or missing task is not recorded: false, nothing logged', async () => {
  const { store, clock } = setup();
  const { id, sessionId } = await inProgressTask(store);
  await setStatus(store, id, { actor: 'dev', sessionId, to: 'done' });
  clock.advance(86_400_000);
  await archiveTasks(store, { before: clock(), actor: 'operator' });
  assert.is(await recordRunUsage(store, toRecord(id)), false);
  assert.is(await recordRunUsage(store, toRecord('TASK-2026-11-25-999')), false);
  assert.is((await readEvents(store.paths.root, { type: 'run.usage' })).length, 0);
});

record('each agent keeps its own session; a run without one keeps the earlier', async () => {
  const { store, clock } = setup();
  const { id } = await inProgressTask(store);
  await recordRunUsage(store, toRecord(id));
  clock.advance(60_000);
  await recordRunUsage(store, toRecord(id, { run: 'sess-2', agent: 'reviewer', runtime: 'codex', cliSession: 'th-1' }));
  await recordRunUsage(store, toRecord(id, { run: 'sess-3', cliSession: null }));
  const { metadata } = (await store.get(id)).task;
  assert.equal(readRuntimeSession(metadata, 'coder'), { runtime: 'claude-code', id: 'cli-abc' });
  assert.equal(readRuntimeSession(metadata, 'reviewer'), { runtime: 'codex', id: 'th-1' });
  assert.is(readRuntimeSession(metadata, 'nobody'), null);
});

record('runs recorded at once all count: each adds to the total the one before it left', async () => {
  const { store } = setup();
  const { id } = await inProgressTask(store);
  const runs = Array.from({ length: 8 }, (_, n) => recordRunUsage(store, toRecord(id, { run: `sess-${n}` })));
  assert.equal(await Promise.all(runs), Array(8).fill(true));
  const total = readTaskUsage((await store.get(id)).task.metadata)!;
  assert.is(total.runs, 8);
  assert.is(total.inputTokens, 8 * USAGE.inputTokens);
  assert.is(total.costUsd, 2);
  assert.is((await readEvents(store.paths.root, { type: 'run.usage' })).length, 8);
});

const report = suite('store.reportRunUsage');
report.after.each(cleanRoots);

report('each report counts once, keyed by the lease session and a counter', async () => {
  const { store } = setup();
  const { id, sessionId } = await inProgressTask(store);
  const input = {
    taskId: id,
    agent: 'dev',
    runtime: 'command',
    model: null,
    cliSession: null,
    session: null,
    usage: USAGE,
  };
  assert.is(await reportRunUsage(store, input), true);
  assert.is(await reportRunUsage(store, input), true);
  const total = readTaskUsage((await store.get(id)).task.metadata)!;
  assert.is(total.runs, 2);
  assert.is(total.inputTokens, 2000);
  assert.is(total.lastRun, `${sessionId}-report-2`);
  const runs = (await readEvents(store.paths.root, { type: 'run.usage' })).map((event) => event.payload.run);
  assert.equal(runs, [`${sessionId}-report-1`, `${sessionId}-report-2`]);
});

const read = suite('store.readTaskUsage');

read('metadata without a total, or with one of the wrong shape, reads as null', () => {
  const total = { ...USAGE, runs: 1, lastRun: 'r' };
  assert.equal(readTaskUsage({ usage: total }), total);
  assert.is(readTaskUsage({}), null);
  assert.is(readTaskUsage({ usage: 'lots' }), null);
  assert.is(readTaskUsage({ usage: { ...total, inputTokens: -1 } }), null);
  assert.is(readTaskUsage({ usage: { ...total, costUsd: '0.1' } }), null);
  assert.is(readTaskUsage({ usage: { ...total, lastRun: undefined } }), null);
  assert.is(readRuntimeSession({ runtimeSessions: { coder: { runtime: 'codex' } } }, 'coder'), null);
  assert.is(readRuntimeSession({ runtimeSessions: {} }, 'constructor'), null);
});

record.run();
report.run();
read.run();
