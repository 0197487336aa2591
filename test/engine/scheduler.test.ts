import { readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createCommandAdapter } from '../../lib/adapters/command.js';
import { startScheduler, type SchedulerHandle } from '../../lib/engine/scheduler.js';
import { createListingSource } from '../../lib/engine/snapshot.js';
import { loadOrg } from '../../lib/org/org-chart.js';
import { readEvents } from '../../lib/store/events/log.js';
import { setStatus } from '../../lib/store/changes/ops.js';
import { createStore, type Store } from '../../lib/store/commit/store.js';
import { completingAgent, quittingAgent, sleepingAgent, writeOrg } from '../helpers/agents.js';
import { cleanRoots, fixedClock, tempRoot, within } from '../helpers/root.js';

const adapters: ReturnType<typeof createCommandAdapter>[] = [];

function schedulerFor(root: string, store: Store, alerts: string[] = []): SchedulerHandle {
  const adapter = createCommandAdapter({ root, socketPath: `${root}/data/daemon.sock`, loadOrg: () => loadOrg(root), baseEnv: process.env, logFile: `${root}/data/logs/agents.log` });
  adapters.push(adapter);
  return startScheduler({
    store,
    source: createListingSource(store),
    adapters: { command: adapter },
    loadOrg: () => loadOrg(root),
    mode: () => 'standalone',
    pluginAttached: () => false,
    log: () => undefined,
    alert: (text) => alerts.push(text),
  });
}

async function readyTask(store: Store, title: string, agent = 'dev', extra: Record<string, unknown> = {}) {
  const created = await store.create({ title, createdBy: 'test', routing: { agent }, ...extra });
  await setStatus(store, created.task.id, 'ready', { actor: 'test' });
  return created.task.id;
}

async function statusOf(store: Store, id: string) {
  return (await store.get(id)).status;
}

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
  assert.equal(dispatched.map((e) => [e.taskId, e.payload.agent, e.payload.adapter]), [[b, 'dev', 'command'], [a, 'dev', 'command']]);
  assert.match(readFileSync(`${root}/tasks/done/${a}.md`, 'utf8'), /## Completion summary\n\ndone by test agent/);
});

run('leases name the daemon that granted them, and maxDispatchesPerDaemon caps what it runs', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', maxConcurrent: 10, command: sleepingAgent(10_000) }], aof: { daemon: { maxDispatchesPerDaemon: 2 } } });
  const store = createStore({ root });
  const ids = [await readyTask(store, 'A'), await readyTask(store, 'B'), await readyTask(store, 'C')];
  const adapter = createCommandAdapter({ root, socketPath: `${root}/data/daemon.sock`, loadOrg: () => loadOrg(root), baseEnv: process.env, logFile: `${root}/data/logs/agents.log` });
  adapters.push(adapter);
  const scheduler = startScheduler({
    store, source: createListingSource(store), adapters: { command: adapter }, loadOrg: () => loadOrg(root), mode: () => 'standalone',
    pluginAttached: () => false, log: () => undefined, alert: () => undefined, owner: { host: 'host-a.example', pid: 4242 },
  });
  const report = await scheduler.tick();
  assert.equal([...report.dispatched].sort(), ids.slice(0, 2));
  assert.equal(report.actions.map((a) => a.kind), ['dispatch', 'dispatch', 'hold']);
  for (const id of ids.slice(0, 2)) {
    const { task } = await store.get(id);
    assert.equal([task.lease?.host, task.lease?.pid], ['host-a.example', 4242]);
  }
  const dispatched = (await readEvents(root)).filter((e) => e.type === 'task.dispatched');
  assert.equal(dispatched.map((e) => [e.payload.host, e.payload.pid]), [['host-a.example', 4242], ['host-a.example', 4242]]);
  await scheduler.close();
});

run('three runs that end without completion deadletter the task, with the event and the console alert', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: quittingAgent() }], aof: { daemon: { retryBackoffMs: [20] } } });
  const store = createStore({ root });
  const id = await readyTask(store, 'Doomed');
  const alerts: string[] = [];
  const scheduler = schedulerFor(root, store, alerts);
  scheduler.schedule();
  await within(20_000, async () => (await statusOf(store, id)) === 'deadletter', 'deadletter');
  await scheduler.close();
  await scheduler.drain(); // agent runs end and are checked before the root is removed
  // events are appended once the lock is released, just after the file moved
  const events = await within(3000, async () => {
    const found = await readEvents(root, { taskId: id });
    return found.some((e) => e.type === 'task.deadletter') && found;
  }, 'task.deadletter logged');
  assert.is(events.filter((e) => e.type === 'task.dispatched').length, 3);
  const dead = events.find((e) => e.type === 'task.deadletter');
  assert.equal(dead?.payload, { reason: 'max_dispatch_failures', failureCount: 3, lastFailureReason: 'ended_without_completion', exitCode: 1 });
  assert.match(alerts.join('\n'), new RegExp(`\\[AOF\\] DEADLETTER: ${id} "Doomed"[\\s\\S]*failures: 3, last reason: ended_without_completion \\(exit code 1\\), agent: dev[\\s\\S]*svc task resurrect ${id}`));
});

run('an agent that cannot be started fails with reason agent_unavailable, backs off 5 s then 30 s, and goes to deadletter at the third failure', async () => {
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
  assert.equal(await tick(), { kind: 'hold', taskId: id, reason: 'backoff', detail: '1 failed dispatch; next attempt at 2026-11-21T10:00:05.000Z', until: '2026-11-21T10:00:05.000Z' });
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
  const failed = (await within(3000, async () => {
    const found = await readEvents(root, { taskId: id, type: 'dispatch.failed' });
    return found.length === 3 && found;
  }, 'three dispatch.failed')).map((e) => [e.payload.reason, e.payload.failureCount, e.payload.nextAttemptAt]);
  assert.equal(failed, [['agent_unavailable', 1, '2026-11-21T10:00:05.000Z'], ['agent_unavailable', 2, '2026-11-21T10:00:35.000Z'], ['agent_unavailable', 3, undefined]]);
  assert.equal(readdirSync(`${root}/data/spawns`), [], 'no pending-spawn marker left');
});

run('an expired lease goes back to ready and the task is dispatched again', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }] });
  const store = createStore({ root });
  const id = await readyTask(store, 'Stale');
  await store.commit(id, (cur) => ({ task: { ...cur.task, lease: { agent: 'dev', expiresAt: '2000-01-01T00:00:00.000Z', sessionId: 'old' } }, body: cur.body, status: 'in-progress', cause: 'claim' }), 'test');
  const scheduler = schedulerFor(root, store);
  scheduler.schedule();
  await within(15_000, async () => (await statusOf(store, id)) === 'done', 'done after requeue');
  await scheduler.close();
  await scheduler.drain(); // agent runs end and are checked before the root is removed
  await within(5_000, async () => (await readEvents(root, { taskId: id })).some((e) => e.type === 'task.completed'), 'completion logged');
  const types = (await readEvents(root, { taskId: id })).map((e) => e.type);
  assert.ok(types.includes('lease.expired'));
});

const race = suite('engine.scheduler exactly once');
race.after.each(() => adapters.splice(0).forEach((a) => a.stop()));
race.after.each(cleanRoots);

race('two schedulers on one tree lease each ready task exactly once', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: ['sleep', '30'], maxConcurrent: 100 }], aof: { daemon: { maxConcurrentDispatches: 100 } } });
  const store = createStore({ root });
  const ids: string[] = [];
  for (let i = 0; i < 40; i++) ids.push(await readyTask(store, `T${i}`));
  const one = schedulerFor(root, createStore({ root }));
  const two = schedulerFor(root, createStore({ root }));
  await Promise.all([one.tick(), two.tick()]);
  await Promise.all([one.idle(), two.idle()]);
  await Promise.all([one.close(), two.close()]);
  const dispatched = (await readEvents(root)).filter((e) => e.type === 'task.dispatched').map((e) => e.taskId!);
  assert.is(dispatched.length, 40, 'one dispatch per task');
  assert.equal(new Set(dispatched).size, 40);
  assert.equal(readdirSync(`${root}/tasks/in-progress`).filter((n) => n.endsWith('.md')).length, 40);
});

const coalesce = suite('engine.scheduler coalesced ticks');
coalesce.after.each(cleanRoots);

coalesce('a tick request made at any moment of a running tick, its very end included, gets a tick that plans after it', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  let plans = 0;
  const missed: number[] = [];
  // Offsets in microtask turns after the first request, past the whole of an empty tick.
  for (let turns = 0; turns < 40; turns++) {
    const scheduler = startScheduler({
      store, source: { snapshot: () => (plans++, { ready: [], inProgress: [], statusOf: () => undefined }) },
      adapters: {}, loadOrg: async () => null, mode: () => 'standalone', pluginAttached: () => false, log: () => undefined, alert: () => undefined,
    });
    scheduler.schedule();
    let later = Promise.resolve();
    for (let i = 0; i < turns; i++) later = later.then(() => undefined);
    const before = await later.then(() => (scheduler.schedule(), plans));
    await scheduler.idle();
    if (plans === before) missed.push(turns);
    await scheduler.close();
  }
  assert.equal(missed, [], `requests made ${missed.join(', ')} microtask turns after the first were dropped`);
});

const holds = suite('engine.scheduler hold warnings');
holds.after.each(cleanRoots);

holds('a no-plugin-attached hold is logged once per task until it changes, then again when it returns', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }] });
  const store = createStore({ root });
  const lines: string[] = [];
  const scheduler = startScheduler({
    store, source: createListingSource(store), adapters: {}, loadOrg: () => loadOrg(root), mode: () => 'plugin', pluginAttached: () => false,
    log: (line) => lines.push(line), alert: () => undefined, holdLogIntervalMs: 0,
  });
  const id = await readyTask(store, 'Waits for the plugin', 'gw');
  const warned = () => lines.filter((line) => line === `warning: ${id} held in ready, reason no-plugin-attached: plugin-expected mode and no plugin holds /v1/spawns/wait`).length;
  for (let i = 0; i < 4; i++) await scheduler.tick();
  assert.is(warned(), 1, lines.join('\n'));
  await setStatus(store, id, 'backlog', { actor: 'test' });
  await scheduler.tick();
  await setStatus(store, id, 'ready', { actor: 'test' });
  for (let i = 0; i < 3; i++) await scheduler.tick();
  assert.is(warned(), 2, 'held again after it changed: one more warning');
  await scheduler.close();
});

run.run();
race.run();
coalesce.run();
holds.run();
