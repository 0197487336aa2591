import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startScheduler } from '../../lib/engine/scheduler.js';
import type { PlanTask } from '../../lib/engine/plan.js';
import { loadOrg } from '../../lib/org/org-chart.js';
import { createStore } from '../../lib/store/commit/store.js';
import { writeOrg } from '../helpers/agents.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const many = suite('engine.scheduler many ready tasks');
many.after.each(cleanRoots);

many('a tick over 200,000 ready tasks in backoff holds each of them and arms one wake-up', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: ['true'] }] });
  const store = createStore({ root });
  const nextAttemptAt = new Date(Date.now() + 3_600_000).toISOString();
  const ready: PlanTask[] = Array.from({ length: 200_000 }, (_, i) => ({
    id: `TASK-2026-01-01-${String(i + 1).padStart(6, '0')}`,
    status: 'ready',
    priority: 'normal',
    createdAt: '2026-01-01T00:00:00.000Z',
    routing: { agent: 'dev' },
    dependsOn: [],
    dispatchFailures: 1,
    nextAttemptAt,
  }));
  const lines: string[] = [];
  const scheduler = startScheduler({
    store,
    adapters: {},
    loadOrg: () => loadOrg(root),
    mode: () => 'standalone',
    pluginAttached: () => false,
    log: (line) => lines.push(line),
    alert: () => undefined,
    source: { snapshot: () => ({ ready, inProgress: [], statusOf: () => undefined }) },
  });
  const report = await scheduler.tick();
  assert.is(report.actions.length, 200_000);
  assert.equal(scheduler.holdCounts(), { backoff: 200_000 });
  assert.equal(lines, []); // a backoff is an expected wait: no warning
  await scheduler.close();
});

many.run();
