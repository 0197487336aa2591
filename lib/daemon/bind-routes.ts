import { hostname } from 'node:os';
import { listIndexed } from './socket/list-tasks.js';
import { toLeaseOwners } from './socket/lease-owners.js';
import { toLongPollBudgets } from './http/long-polls.js';
import { metricsHandler } from './metrics/registry.js';
import { notifyHandler } from './notify/route.js';
import type { Clock } from '../core/time/clock.js';
import type { Store } from '../store/commit/store.js';
import type { OrgChart } from '../org/schema.js';
import type { TaskIndex } from '../store/index/tasks.js';
import type { ToolContext, ToolDef } from '../tools/registry.js';
import type { RouteContext } from './socket/routes.js';
import type { StatusBody } from '../net/protocol/status.js';
import { createRunCallers } from './socket/run-caller.js';
import { requireScheduling } from './scheduling/scheduling.js';
import type { ServerLimits } from './http/limits.js';
import type { ChangeFeed } from './http/change-feed.js';
import type { DaemonLog } from './instance/log.js';
import type { SpawnQueue } from './scheduling/spawn-queue.js';
import type { DaemonState } from './options.js';
import type { DaemonSignals } from './wire.js';
import { WEB_HOST, type WebPort } from './web-port.js';

/** What the socket's routes read: built once at the start, never changed by them. */
export interface RouteHandles {
  readonly tools: readonly ToolDef[];
  /** The org chart the tools read: the file's, loaded again only when it changes. */
  readonly org: () => Promise<OrgChart | null>;
  readonly spawnWaitMs: number;
  readonly store: Store;
  readonly index: TaskIndex;
  readonly spawns: SpawnQueue;
  readonly log: DaemonLog;
  readonly clock: Clock;
  readonly changes: ChangeFeed;
  readonly web: Pick<WebPort, 'open' | 'port'>;
  readonly signals: DaemonSignals;
  readonly pid: number;
  readonly version: string;
  readonly startedAt: number;
  /** The daemon's flags, its metrics and its scheduler (null until it runs). */
  readonly state: Readonly<DaemonState>;
}

/** What the socket's routes are wired to: the daemon's tools, index, scheduler, web board and hooks. */
export function toRouteContext(handles: RouteHandles, limits: ServerLimits): RouteContext {
  const { clock, spawns, index, log, state, signals } = handles;
  // A change is in the index (read-your-writes) and told to the long-polls before it is answered.
  const committed = async (ids: readonly string[]) => {
    await index.updateStale(ids);
    return handles.changes.bump(ids);
  };
  const toolContext: ToolContext = {
    store: handles.store,
    index,
    org: handles.org,
    handOn: (id) => state.scheduling?.handOn(id) ?? (() => undefined),
  };
  return {
    tools: handles.tools,
    spawns,
    log,
    spawnWaitMs: handles.spawnWaitMs,
    longPolls: toLongPollBudgets(limits),
    status: async () => ({
      ...statusOf(handles),
      ...(state.scheduling
        ? { config: await state.scheduling.config(), pausedAgents: state.scheduling.pausedAgents() }
        : {}),
      ...(state.notify ? { notify: state.notify.status() } : {}),
    }),
    isStopping: () => state.stopping,
    callerOf: createRunCallers({
      runs: () => state.scheduling?.localRuns() ?? [],
      inProgress: () => index.summaries('in-progress'),
    }),
    toolContext: {
      ...toolContext,
      onCommitted: async (ids) => {
        await committed(ids);
        return signals.socket.emit('committed', ids);
      },
    },
    batchContext: () => {
      const all: string[] = [];
      return {
        toolContext: {
          ...toolContext,
          onCommitted: async (ids) => {
            await committed(ids);
            all.push(...ids);
          },
        },
        done: () => void (all.length && signals.socket.emit('committed', all)),
      };
    },
    listTasks: (statuses, filter) => listIndexed({ index, store: handles.store }, statuses, filter),
    metrics: metricsHandler(() => state.metrics ?? undefined),
    notify: notifyHandler(() => state.notify),
    scheduler: {
      tick: () => requireScheduling(state.scheduling).tick(),
      dryRun: () => requireScheduling(state.scheduling).dryRun(),
    },
    openWeb: (port) => handles.web.open(port),
    waitChanges: async (after, waitMs, signal) => {
      await index.refresh();
      return handles.changes.wait(after, waitMs, signal);
    },
    onHook: async (name, payload, plugin) => {
      const ended = state.scheduling?.onPluginEvent(name, payload);
      if (ended) log.info('spawn.ended', { sessionKey: ended, by: name });
      log.info(`event.${name}`, { plugin });
      // the hook took effect: its answer is success
      await handles.store.events.record(clock(), [{ type: `plugin.${name}`, actor: plugin ?? 'plugin', payload }]);
      signals.socket.emit('hook', name, payload, plugin);
    },
  };
}

/** The body of `GET /status`. */
export function statusOf(handles: RouteHandles): StatusBody {
  const { index, state } = handles;
  return {
    status: state.stopping ? 'stopping' : 'running',
    healthy: !state.stopping,
    version: handles.version,
    pid: handles.pid,
    uptimeMs: handles.clock().getTime() - handles.startedAt,
    mode: state.scheduling?.mode() ?? 'standalone',
    plugins: handles.spawns.attached(),
    tasks: { byStatus: index.counts(), invalid: index.invalid().length, loaded: state.loaded },
    scheduler: state.scheduling?.stats() ?? { lastPollAt: null, lastTickAt: null },
    leases: toLeaseOwners(index.summaries('in-progress'), { host: hostname(), pid: handles.pid }),
    web: toWebStatus(handles.web.port()),
  };
}

// --- internal ---

function toWebStatus(port: number | null): StatusBody['web'] {
  return port === null ? null : { port, url: `http://${WEB_HOST}:${port}/` };
}
