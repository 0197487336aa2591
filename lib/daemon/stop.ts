import type { Server } from 'node:http';
import type { Clock } from '../core/time/clock.js';
import type { Paths } from '../store/disk/paths.js';
import type { Store } from '../store/commit/store.js';
import type { TaskIndex } from '../store/index/tasks.js';
import type { EventRetry } from './event-retry.js';
import type { createHealer } from './heal.js';
import type { HealthPort } from './health-port.js';
import type { ChangeFeed } from './http/change-feed.js';
import { removePidFile, removeSocket, socketLost, type InstanceLock } from './instance/lock.js';
import type { DaemonLog } from './instance/log.js';
import type { SpawnQueue } from './scheduling/spawn-queue.js';
import { closeServer, type RequestTracker } from './shutdown.js';
import type { DaemonState } from './options.js';
import type { WebPort } from './web-port.js';

/** What a stop stops, in its order, and the state it marks. */
export interface StopHandles {
  paths: Paths;
  clock: Clock;
  pid: number;
  startedAt: number;
  store: Store;
  index: TaskIndex;
  spawns: SpawnQueue;
  changes: ChangeFeed;
  web: WebPort;
  healer: ReturnType<typeof createHealer>;
  log: DaemonLog;
  lock: InstanceLock;
  events: EventRetry;
  health: HealthPort | undefined;
  server: Server;
  requests: RequestTracker;
  /** How long in-flight requests are waited for. */
  drainMs: number;
  /** The daemon's stderr (the line of a stop on its own). */
  stderr: (text: string) => void;
  state: DaemonState;
}

/** The stop: 503 on /healthz while in-flight requests finish, then close, remove pid and socket, log. */
export function createStop(handles: StopHandles): {
  close(): Promise<void>;
  closed: Promise<void>;
  abandon(): Promise<void>;
} {
  const { paths, clock, pid, log, lock, state, requests } = handles;
  let stopped: Promise<void> | null = null;
  let markClosed!: () => void;
  const closed = new Promise<void>((done) => (markClosed = done));
  const close = () =>
    (stopped ??= (async () => {
      state.stopping = true;
      handles.changes.close(); // held long-polls answer now instead of holding the drain
      log.info('daemon.stopping', { pid, inFlight: requests.count() });
      await handles.web.close(); // open boards reconnect to the next daemon
      await state.scheduling?.close();
      await state.notify?.close();
      await handles.healer.close();
      handles.spawns.close();
      await requests.drained(handles.drainMs);
      await closeServer(handles.server, 1000);
      await removeSocket(paths.socket, state.socketIno);
      await handles.health?.close();
      await handles.index.close();
      await removePidFile(paths, pid);
      log.info('daemon.stopped', {
        pid,
        uptimeMs: clock().getTime() - handles.startedAt,
        ...(state.lost ? { lost: state.lost } : {}),
      });
      // A daemon whose data/ was removed writes no event: appending would create data/ again.
      if (!state.lost)
        await handles.store.events.record(clock(), [{ type: 'daemon.stopped', actor: 'system', payload: { pid } }]);
      await handles.events.close({ spool: !state.lost });
      await log.close();
      await lock.release();
      markClosed();
    })());
  // A forced stop (a second signal): only what would keep the next daemon out or mislead a client.
  const abandon = async () => {
    log.warn('daemon.forced', {
      pid,
      inFlight: requests.count(),
      message:
        'a second signal: stopping at once without the drain; leased tasks are left to lease expiry and recovery',
    });
    await removeSocket(paths.socket, state.socketIno);
    await removePidFile(paths, pid);
    await log.close();
    await lock.release();
  };
  return { close, closed, abandon };
}

/**
 * Every `intervalMs`, checks that the socket file and the instance lock are still this daemon's.
 * When `data/` was removed (or either was replaced), clients can no longer reach this daemon and
 * another may start on the root: it logs why and stops, rather than run on unseen beside it.
 */
export function watchInstance(handles: StopHandles, intervalMs: number, close: () => Promise<void>): void {
  const { paths, pid, state } = handles;
  const timer = setInterval(() => {
    if (state.stopping) return clearInterval(timer);
    const why = socketLost(paths.socket, state.socketIno) ?? handles.lock.lost();
    if (!why) return;
    clearInterval(timer);
    state.lost = why;
    handles.log.error('daemon.instance_lost', {
      pid,
      message: `${why}: this daemon is no longer reachable as the daemon of ${paths.root}; stopping`,
    });
    handles.stderr(`[AOF] svc daemon (pid ${pid}) stops: ${why}.\n`);
    void close();
  }, intervalMs);
  timer.unref();
}
