import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_TIMER_MS, toTimerDelay } from '../../lib/core/time/timer.js';
import { startScheduler } from '../../lib/engine/scheduler.js';
import { createListingSource } from '../../lib/engine/snapshot.js';
import { loadOrg } from '../../lib/org/org-chart.js';
import { setStatus } from '../../lib/store/changes/ops.js';
import { createStore } from '../../lib/store/commit/store.js';
import { writeOrg } from '../helpers/agents.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const timers = suite('engine.scheduler wake-up timers');
timers.after.each(cleanRoots);

timers('a notBefore past the longest timer does not make the scheduler tick again and again', async () => {
  assert.equal([toTimerDelay(-5), toTimerDelay(1000), toTimerDelay(40 * 86_400_000)], [0, 1000, MAX_TIMER_MS]);
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: ['true'] }] });
  const store = createStore({ root });
  const { task } = await store.create({
    title: 'In forty days',
    createdBy: 'test',
    routing: { agent: 'dev' },
    notBefore: new Date(Date.now() + 40 * 86_400_000).toISOString(),
  });
  await setStatus(store, task.id, { to: 'ready', actor: 'test' });
  const listing = createListingSource(store);
  let snapshots = 0;
  const scheduler = startScheduler({
    store,
    source: {
      snapshot: () => {
        snapshots++;
        return listing.snapshot();
      },
    },
    adapters: {},
    loadOrg: () => loadOrg(root),
    mode: () => 'standalone',
    pluginAttached: () => false,
    log: () => undefined,
    alert: () => undefined,
  });
  const report = await scheduler.tick();
  assert.equal(
    report.actions.map((a) => [a.kind, a.kind === 'hold' ? a.reason : '']),
    [['hold', 'not-before']],
  );
  // A timer past 2^31-1 ms would fire at once, and each tick would arm it again: hundreds of ticks in this window.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await scheduler.idle();
  assert.is(snapshots, 1, `${snapshots} plans in 300 ms`);
  await scheduler.close();
});

timers(
  'a long tick asked for again is followed by a rest as long before the next, so the changes asking for it get in',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: ['true'] }] });
    const store = createStore({ root });
    const listing = createListingSource(store);
    const plans: { start: number; end: number }[] = [];
    const scheduler = startScheduler({
      store,
      adapters: {},
      loadOrg: () => loadOrg(root),
      mode: () => 'standalone',
      pluginAttached: () => false,
      log: () => undefined,
      alert: () => undefined,
      source: {
        snapshot: async () => {
          const start = performance.now();
          while (performance.now() - start < 40); // a plan of many ready tasks holds the event loop this long
          if (plans.length === 0) scheduler.schedule(); // a change arrives during the first tick
          plans.push({ start, end: performance.now() });
          return listing.snapshot();
        },
      },
    });
    scheduler.schedule();
    await scheduler.idle();
    assert.is(plans.length, 2);
    const [first, second] = plans as [{ start: number; end: number }, { start: number; end: number }];
    assert.ok(
      second.start - first.end >= 40,
      `the second tick began ${(second.start - first.end).toFixed(1)} ms after the first plan`,
    );
    await scheduler.close();
  },
);

timers(
  'a plan of a few ms asked for again is followed by a rest as long: a stream of changes is not planned once per change',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: ['true'] }] });
    const store = createStore({ root });
    const listing = createListingSource(store);
    const plans: { start: number; end: number }[] = [];
    const scheduler = startScheduler({
      store,
      adapters: {},
      loadOrg: () => loadOrg(root),
      mode: () => 'standalone',
      pluginAttached: () => false,
      log: () => undefined,
      alert: () => undefined,
      source: {
        snapshot: async () => {
          const start = performance.now();
          while (performance.now() - start < 6); // a plan over a few hundred ready tasks
          if (plans.length === 0) scheduler.schedule();
          plans.push({ start, end: performance.now() });
          return listing.snapshot();
        },
      },
    });
    scheduler.schedule();
    await scheduler.idle();
    assert.is(plans.length, 2);
    const [first, second] = plans as [{ start: number; end: number }, { start: number; end: number }];
    assert.ok(
      second.start - first.end >= 6,
      `the second tick began ${(second.start - first.end).toFixed(1)} ms after the first plan`,
    );
    await scheduler.close();
  },
);

timers('a tick asked for just after a plan of a few ms waits out the same rest', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: ['true'] }] });
  const store = createStore({ root });
  const listing = createListingSource(store);
  const plans: { start: number; end: number }[] = [];
  const scheduler = startScheduler({
    store,
    adapters: {},
    loadOrg: () => loadOrg(root),
    mode: () => 'standalone',
    pluginAttached: () => false,
    log: () => undefined,
    alert: () => undefined,
    source: {
      snapshot: async () => {
        const start = performance.now();
        while (performance.now() - start < 6);
        plans.push({ start, end: performance.now() });
        return listing.snapshot();
      },
    },
  });
  scheduler.schedule();
  await scheduler.idle(); // the first tick is over, nothing asked for during it
  scheduler.schedule(); // the next change of a stream
  await scheduler.idle();
  assert.is(plans.length, 2);
  const [first, second] = plans as [{ start: number; end: number }, { start: number; end: number }];
  assert.ok(
    second.start - first.end >= 6,
    `the second tick began ${(second.start - first.end).toFixed(1)} ms after the first plan`,
  );
  await scheduler.close();
});

timers.run();
