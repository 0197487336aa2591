import { createCommandAdapter } from '../../lib/adapters/command.js';
import { startScheduler, type SchedulerHandle } from '../../lib/engine/scheduler.js';
import { createListingSource } from '../../lib/engine/snapshot.js';
import { loadOrg } from '../../lib/org/org-chart.js';
import { setStatus } from '../../lib/store/changes/ops.js';
import type { Store } from '../../lib/store/commit/store.js';

// The scheduler tests' set-up (test/engine/scheduler*.test.ts): a scheduler over a command adapter,
// closed by the suites' hooks through `adapters`.
/** The command adapters started by schedulerFor, for a suite's after.each to stop. */
export const adapters: ReturnType<typeof createCommandAdapter>[] = [];

/** A scheduler in standalone mode over a command adapter of `root`; alerts go to `alerts`. */
export function schedulerFor(root: string, store: Store, alerts: string[] = []): SchedulerHandle {
  const adapter = createCommandAdapter({
    root,
    socketPath: `${root}/data/daemon.sock`,
    loadOrg: () => loadOrg(root),
    baseEnv: process.env,
    logFile: `${root}/data/logs/agents.log`,
  });
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

/** Creates a task routed to `agent` and moves it to ready; returns its id. */
export async function readyTask(store: Store, title: string, agent = 'dev', extra: Record<string, unknown> = {}) {
  const created = await store.create({ title, createdBy: 'test', routing: { agent }, ...extra });
  await setStatus(store, created.task.id, { to: 'ready', actor: 'test' });
  return created.task.id;
}

export async function statusOf(store: Store, id: string) {
  return (await store.get(id)).status;
}
