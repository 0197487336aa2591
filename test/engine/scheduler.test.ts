import { readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createCommandAdapter } from '../../lib/adapters/command.js';
import { startScheduler } from '../../lib/engine/scheduler.js';
import { createListingSource } from '../../lib/engine/snapshot.js';
import { loadOrg } from '../../lib/org/org-chart.js';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { completingAgent, quittingAgent, sleepingAgent, writeOrg } from '../helpers/agents.js';
import { cleanRoots, fixedClock, tempRoot, within } from '../helpers/root.js';
import { adapters, readyTask, schedulerFor, statusOf } from './scheduler-setup.js';

// Two schedulers on one tree, coalesced ticks and hold warnings: scheduler-ticks.test.ts.
const run = suite('engine.scheduler with command agents');
run.after.each(() => adapters.splice(0).forEach((a) => a.stop()));
run.after.each(cleanRoots);

run('dispatches ready tasks to a command agent, one at a time, and they reach done', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }] });
  const store = createStore({ root });
  const a = await readyTask(store, 'A');
  const b = await readyTask(store, 'B', 'dev', { priority: 'high' });
  const scheduler = schedulerFor(root, store);
  const first = await scheduler.tick();
  assert.equal(first.dispatched, [b], 'high priority first; maxConcurrent 1 holds A');
  await within(15_000, async () => (await statusOf(store, b)) === 'done', 'B done');
  scheduler.schedule();
  await within(15_000, async () => (await statusOf(store, a)) === 'done', 'A done');
  await scheduler.close();
  await scheduler.drain(); // agent runs end and are checked before the root is removed
  const dispatched = (await readEvents(root)).filter((e) => e.type === 'task.dispatched');
  assert.equal(
    dispatched.map((e) => [e.taskId, e.payload.agent, e.payload.adapter]),
    [
      [b, 'dev', 'command'],
      [a, 'dev', 'command'],
    ],
  );
  assert.match(readFileSync(`${root}/tasks/done/${a}.md`, 'utf8'), /## Completion summary\n\ndone by test agent/);
});

run('leases name the daemon that granted them, and maxDispatchesPerDaemon caps what it runs', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', maxConcurrent: 10, command: sleepingAgent(10_000) }],
    aof: { daemon: { maxDispatchesPerDaemon: 2 } },
  });
  const store = createStore({ root });
  const ids = [await readyTask(store, 'A'), await readyTask(store, 'B'), await readyTask(store, 'C')];
  const adapter = createCommandAdapter({
    root,
    socketPath: `${root}/data/daemon.sock`,
    loadOrg: () => loadOrg(root),
    baseEnv: process.env,
    logFile: `${root}/data/logs/agents.log`,
  });
  adapters.push(adapter);
  const scheduler = startScheduler({
    store,
    source: createListingSource(store),
    adapters: { command: adapter },
    loadOrg: () => loadOrg(root),
    mode: () => 'standalone',
    pluginAttached: () => false,
    log: () => undefined,
    alert: () => undefined,
    owner: { host: 'host-a.example', pid: 4242 },
  });
  const report = await scheduler.tick();
  assert.equal([...report.dispatched].sort(), ids.slice(0, 2));
  assert.equal(
    report.actions.map((a) => a.kind),
    ['dispatch', 'dispatch', 'hold'],
  );
  for (const id of ids.slice(0, 2)) {
    const { task } = await store.get(id);
    assert.equal([task.lease?.host, task.lease?.pid], ['host-a.example', 4242]);
  }
  const dispatched = (await readEvents(root)).filter((e) => e.type === 'task.dispatched');
  assert.equal(
    dispatched.map((e) => [e.payload.host, e.payload.pid]),
    [
      ['host-a.example', 4242],
      ['host-a.example', 4242],
    ],
  );
  await scheduler.close();
});

run('three runs that end without completion deadletter the task, with the event and the console alert', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: quittingAgent() }],
    aof: { daemon: { retryBackoffMs: [20] } },
  });
  const store = createStore({ root });
  const id = await readyTask(store, 'Doomed');
  const alerts: string[] = [];
  const scheduler = schedulerFor(root, store, alerts);
  scheduler.schedule();
  await within(20_000, async () => (await statusOf(store, id)) === 'deadletter', 'deadletter');
  await scheduler.close();
  await scheduler.drain(); // agent runs end and are checked before the root is removed
  // events are appended once the lock is released, just after the file moved
  const events = await within(
    3000,
    async () => {
      const found = await readEvents(root, { taskId: id });
      return found.some((e) => e.type === 'task.deadletter') && found;
    },
    'task.deadletter logged',
  );
  assert.is(events.filter((e) => e.type === 'task.dispatched').length, 3);
  const dead = events.find((e) => e.type === 'task.deadletter');
  assert.equal(dead?.payload, {
    reason: 'max_dispatch_failures',
    failureCount: 3,
    lastFailureReason: 'ended_without_completion',
    exitCode: 1,
  });
  assert.match(
    alerts.join('\n'),
    new RegExp(
      `\\[AOF\\] DEADLETTER: ${id} "Doomed"[\\s\\S]*failures: 3, last reason: ended_without_completion \\(exit code 1\\), agent: dev[\\s\\S]*svc task resurrect ${id}`,
    ),
  );
});

run(
  'an agent that cannot be started fails with reason agent_unavailable, backs off 5 s then 30 s, and goes to deadletter at the third failure',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: ['/nonexistent/agent-binary'] }] });
    const clock = fixedClock('2026-11-21T10:00:00.000Z');
    const store = createStore({ root, clock });
    const id = await readyTask(store, 'No binary');
    const scheduler = schedulerFor(root, store);
    const tick = async () => {
      const report = await scheduler.tick();
      await scheduler.idle(); // the tick a failure asks for, too
      return report.actions.find((a) => a.taskId === id);
    };
    assert.equal(await tick(), { kind: 'dispatch', taskId: id, agent: 'dev', adapter: 'command' });
    assert.equal((await store.get(id)).task.metadata.nextAttemptAt, '2026-11-21T10:00:05.000Z');
    assert.equal(await tick(), {
      kind: 'hold',
      taskId: id,
      reason: 'backoff',
      detail: '1 failed dispatch; next attempt at 2026-11-21T10:00:05.000Z',
      until: '2026-11-21T10:00:05.000Z',
    });
    clock.advance(4999);
    assert.is((await tick())?.kind, 'hold', 'not a millisecond early');
    clock.advance(1);
    assert.is((await tick())?.kind, 'dispatch');
    assert.equal((await store.get(id)).task.metadata.nextAttemptAt, '2026-11-21T10:00:35.000Z');
    clock.advance(29_999);
    assert.is((await tick())?.kind, 'hold');
    clock.advance(1);
    assert.is((await tick())?.kind, 'dispatch');
    assert.is(await statusOf(store, id), 'deadletter');
    assert.is((await store.get(id)).task.metadata.nextAttemptAt, undefined, 'no next attempt after the last');
    await scheduler.close();
    await scheduler.drain();
    const failed = (
      await within(
        3000,
        async () => {
          const found = await readEvents(root, { taskId: id, type: 'dispatch.failed' });
          return found.length === 3 && found;
        },
        'three dispatch.failed',
      )
    ).map((e) => [e.payload.reason, e.payload.failureCount, e.payload.nextAttemptAt]);
    assert.equal(failed, [
      ['agent_unavailable', 1, '2026-11-21T10:00:05.000Z'],
      ['agent_unavailable', 2, '2026-11-21T10:00:35.000Z'],
      ['agent_unavailable', 3, undefined],
    ]);
    assert.equal(readdirSync(`${root}/data/spawns`), [], 'no pending-spawn marker left');
  },
);

run('an expired lease goes back to ready and the task is dispatched again', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }] });
  const store = createStore({ root });
  const id = await readyTask(store, 'Stale');
  await store.commit(
    id,
    (cur) => ({
      task: { ...cur.task, lease: { agent: 'dev', expiresAt: '2000-01-01T00:00:00.000Z', sessionId: 'old' } },
      body: cur.body,
      status: 'in-progress',
      cause: 'claim',
    }),
    'test',
  );
  const scheduler = schedulerFor(root, store);
  scheduler.schedule();
  await within(15_000, async () => (await statusOf(store, id)) === 'done', 'done after requeue');
  await scheduler.close();
  await scheduler.drain(); // agent runs end and are checked before the root is removed
  await within(
    5_000,
    async () => (await readEvents(root, { taskId: id })).some((e) => e.type === 'task.completed'),
    'completion logged',
  );
  const types = (await readEvents(root, { taskId: id })).map((e) => e.type);
  assert.ok(types.includes('lease.expired'));
});

run.run();
