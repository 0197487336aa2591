import { hostname } from 'node:os';
import { listIndexed } from './socket/list-tasks.js';
import { toLeaseOwners } from './socket/lease-owners.js';
import { toLongPollBudgets } from './http/long-polls.js';
import { metricsHandler } from './metrics/registry.js';
import type { ToolContext } from '../tools/registry.js';
import type { RouteContext } from './socket/routes.js';
import type { StatusBody } from '../net/protocol/status.js';
import { createRunCallers } from './socket/run-caller.js';
import { requireScheduling } from './scheduling/start.js';
import type { ServerLimits } from './http/limits.js';
import type { Core } from './options.js';
import { WEB_HOST } from './web-port.js';

/** What the socket's routes are wired to: the daemon's tools, index, scheduler, web board and hooks. */
export function toRouteContext(core: Core, limits: ServerLimits): RouteContext {
  const { clock, spawns, parts } = core;
  const { index, log } = parts;
  // A change is in the index (read-your-writes) and told to the long-polls before it is answered.
  const committed = async (ids: readonly string[]) => (await index.update(ids), core.changes.bump(ids));
  const toolContext: ToolContext = { store: core.store, index, handOn: (id) => core.scheduling?.handOn(id) ?? (() => undefined) };
  return {
    tools: core.options.tools, spawns, log, spawnWaitMs: core.options.spawnWaitMs ?? 25_000, longPolls: toLongPollBudgets(limits),
    status: async () => ({ ...statusOf(core), ...(core.scheduling ? { config: await core.scheduling.config(), pausedAgents: core.scheduling.pausedAgents() } : {}) }),
    isStopping: () => core.stopping,
    callerOf: createRunCallers({ runs: () => core.scheduling?.localRuns() ?? [], inProgress: () => index.summaries('in-progress') }),
    toolContext: { ...toolContext, onCommitted: async (ids) => (await committed(ids), core.scheduling?.schedule()) },
    batchContext: () => {
      let changed = false;
      return { toolContext: { ...toolContext, onCommitted: async (ids) => void (await committed(ids), (changed = true)) }, done: () => void (changed && core.scheduling?.schedule()) };
    },
    listTasks: (statuses, filter) => listIndexed(index, core.store, statuses, filter), metrics: metricsHandler(() => parts.metrics),
    scheduler: {
      tick: () => requireScheduling(core.scheduling).tick(),
      dryRun: () => requireScheduling(core.scheduling).dryRun(),
    },
    openWeb: (port) => core.web.open(port),
    waitChanges: async (after, waitMs, signal) => {
      await index.refresh();
      return core.changes.wait(after, waitMs, signal);
    },
    onHook: async (name, payload, plugin) => {
      const ended = core.scheduling?.onPluginEvent(name, payload);
      if (ended) log.info('spawn.ended', { sessionKey: ended, by: name });
      log.info(`event.${name}`, { plugin });
      await core.store.events.record(clock(), [{ type: `plugin.${name}`, actor: plugin ?? 'plugin', payload }]); // the hook took effect: its answer is success
      for (const listener of core.listeners) listener(name, payload, plugin);
    },
  };
}

/** The body of `GET /status`. */
export function statusOf(core: Core): StatusBody {
  const { index } = core.parts;
  return {
    status: core.stopping ? 'stopping' : 'running', healthy: !core.stopping, version: core.version, pid: core.pid,
    uptimeMs: core.clock().getTime() - core.startedAt, mode: core.scheduling?.mode() ?? 'standalone', plugins: core.spawns.attached(),
    tasks: { byStatus: index.counts(), invalid: index.invalid().length, loaded: core.loaded },
    scheduler: core.scheduling?.stats() ?? { lastPollAt: null, lastTickAt: null },
    leases: toLeaseOwners(index.summaries('in-progress'), { host: hostname(), pid: core.pid }),
    web: toWebStatus(core.web.port()),
  };
}

// --- internal ---

function toWebStatus(port: number | null): StatusBody['web'] {
  return port === null ? null : { port, url: `http://${WEB_HOST}:${port}/` };
}
