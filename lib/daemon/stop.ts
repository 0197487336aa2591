import type { Server } from 'node:http';
import { removePidFile, removeSocket, socketLost } from './instance/lock.js';
import { closeServer, type RequestTracker } from './shutdown.js';
import type { Core } from './options.js';

/** The stop: 503 on /healthz while in-flight requests finish, then close, remove pid and socket, log. */
export function createStop(core: Core, server: Server, requests: RequestTracker): { close(): Promise<void>; closed: Promise<void>; abandon(): Promise<void> } {
  const { paths, clock, pid, parts } = core;
  let stopped: Promise<void> | null = null;
  let markClosed!: () => void;
  const closed = new Promise<void>((done) => (markClosed = done));
  const close = () =>
    (stopped ??= (async () => {
      core.stopping = true;
      core.changes.close(); // held long-polls answer now instead of holding the drain
      parts.log.info('daemon.stopping', { pid, inFlight: requests.count() });
      await core.web.close(); // open boards reconnect to the next daemon
      await core.scheduling?.close();
      await core.healer.close();
      core.spawns.close();
      await requests.drained(core.options.drainTimeoutMs ?? 10_000);
      await closeServer(server, 1000);
      await removeSocket(paths.socket, core.socketIno);
      await parts.health?.close();
      await parts.index.close();
      await removePidFile(paths, pid);
      parts.log.info('daemon.stopped', { pid, uptimeMs: clock().getTime() - core.startedAt, ...(core.lost ? { lost: core.lost } : {}) });
      // A daemon whose data/ was removed writes no event: appending would create data/ again.
      if (!core.lost) await core.store.events.record(clock(), [{ type: 'daemon.stopped', actor: 'system', payload: { pid } }]);
      await parts.events.close({ spool: !core.lost });
      await parts.log.close();
      await parts.lock.release();
      markClosed();
    })());
  // A forced stop (a second signal): only what would keep the next daemon out or mislead a client.
  const abandon = async () => {
    parts.log.warn('daemon.forced', { pid, inFlight: requests.count(), message: 'a second signal: stopping at once without the drain; leased tasks are left to lease expiry and recovery' });
    await removeSocket(paths.socket, core.socketIno);
    await removePidFile(paths, pid);
    await parts.log.close();
    await parts.lock.release();
  };
  return { close, closed, abandon };
}

/**
 * Every `intervalMs`, checks that the socket file and the instance lock are still this daemon's.
 * When `data/` was removed (or either was replaced), clients can no longer reach this daemon and
 * another may start on the root: it logs why and stops, rather than run on unseen beside it.
 */
export function watchInstance(core: Core, intervalMs: number, close: () => Promise<void>): void {
  const timer = setInterval(() => {
    if (core.stopping) return clearInterval(timer);
    const why = socketLost(core.paths.socket, core.socketIno) ?? core.parts.lock.lost();
    if (!why) return;
    clearInterval(timer);
    core.lost = why;
    core.parts.log.error('daemon.instance_lost', { pid: core.pid, message: `${why}: this daemon is no longer reachable as the daemon of ${core.paths.root}; stopping` });
    (core.options.stderr ?? ((t: string) => process.stderr.write(t)))(`[AOF] svc daemon (pid ${core.pid}) stops: ${why}.\n`);
    void close();
  }, intervalMs);
  timer.unref();
}
