import { readdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startScheduler } from '../../lib/engine/scheduler.js';
import { createListingSource } from '../../lib/engine/snapshot.js';
import { loadOrg } from '../../lib/org/org-chart.js';
import { readEvents } from '../../lib/store/events/log.js';
import { setStatus } from '../../lib/store/changes/ops.js';
import { createStore } from '../../lib/store/commit/store.js';
import { writeOrg } from '../helpers/agents.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';
import { adapters, readyTask, schedulerFor } from './scheduler-setup.js';

// Two schedulers on one tree, ticks requested while one runs, and the warnings of held tasks.
const race = suite('engine.scheduler exactly once');
race.after.each(() => adapters.splice(0).forEach((a) => a.stop()));
race.after.each(cleanRoots);

race('two schedulers on one tree lease each ready task exactly once', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: ['sleep', '30'], maxConcurrent: 100 }],
    aof: { daemon: { maxConcurrentDispatches: 100 } },
  });
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

coalesce(
  'a tick request made at any moment of a running tick, its very end included, gets a tick that plans after it',
  async () => {
    const root = tempRoot();
    const store = createStore({ root });
    let plans = 0;
    const missed: number[] = [];
    // Offsets in microtask turns after the first request, past the whole of an empty tick.
    for (let turns = 0; turns < 40; turns++) {
      const scheduler = startScheduler({
        store,
        source: {
          snapshot: () => {
            plans++;
            return { ready: [], inProgress: [], statusOf: () => undefined };
          },
        },
        adapters: {},
        loadOrg: async () => null,
        mode: () => 'standalone',
        pluginAttached: () => false,
        log: () => undefined,
        alert: () => undefined,
      });
      scheduler.schedule();
      let later = Promise.resolve();
      for (let i = 0; i < turns; i++) later = later.then(() => undefined);
      const before = await later.then(() => {
        scheduler.schedule();
        return plans;
      });
      await scheduler.idle();
      if (plans === before) missed.push(turns);
      await scheduler.close();
    }
    assert.equal(missed, [], `requests made ${missed.join(', ')} microtask turns after the first were dropped`);
  },
);

const holds = suite('engine.scheduler hold warnings');
holds.after.each(cleanRoots);

holds('a no-plugin-attached hold is logged once per task until it changes, then again when it returns', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'gw', name: 'Gateway agent' }] });
  const store = createStore({ root });
  const lines: string[] = [];
  const scheduler = startScheduler({
    store,
    source: createListingSource(store),
    adapters: {},
    loadOrg: () => loadOrg(root),
    mode: () => 'plugin',
    pluginAttached: () => false,
    log: (line) => lines.push(line),
    alert: () => undefined,
    holdLogIntervalMs: 0,
  });
  const id = await readyTask(store, 'Waits for the plugin', 'gw');
  const warned = () =>
    lines.filter(
      (line) =>
        line ===
        `warning: ${id} held in ready, reason no-plugin-attached: plugin-expected mode and no plugin holds /v1/spawns/wait`,
    ).length;
  for (let i = 0; i < 4; i++) await scheduler.tick();
  assert.is(warned(), 1, lines.join('\n'));
  await setStatus(store, id, { to: 'backlog', actor: 'test' });
  await scheduler.tick();
  await setStatus(store, id, { to: 'ready', actor: 'test' });
  for (let i = 0; i < 3; i++) await scheduler.tick();
  assert.is(warned(), 2, 'held again after it changed: one more warning');
  await scheduler.close();
});

race.run();
coalesce.run();
holds.run();
