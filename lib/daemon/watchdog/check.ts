import { existsSync } from 'node:fs';
import { isZombie } from '../../fs/process.js';
import type { Paths } from '../../store/disk/paths.js';
import { probeDaemon } from '../control.js';
import { checkHealthPort } from '../health-port.js';
import { isAlive, readPid } from '../instance/pid.js';
import type { StatusBody } from '../../net/protocol/status.js';
import { describeError } from '../../core/errors.js';

/**
 * One look at the daemon: `healthy`; `busy` (it answered 503 `busy`: alive, every connection has a
 * request in flight); `transient` (starting or stopping: answering 503, alive without its socket,
 * or answering before its pid file is written); `stopped` (no pid file and no socket: what a
 * graceful stop leaves, or a daemon never started); `failed` (the reason says whether it did not
 * answer in time, refused, or answered something else).
 */
export interface HealthCheck {
  state: 'healthy' | 'busy' | 'transient' | 'stopped' | 'failed';
  reason?: string;
  /** The `/status` body when the socket answered it. */
  status?: StatusBody;
}

/** Options of `checkDaemon`. */
export interface CheckOptions {
  /** Check `GET http://127.0.0.1:<port>/health` instead of the socket's `/healthz`. */
  port?: number;
  timeoutMs?: number;
}

/** Checks the daemon of `paths` the way the watchdog does: over the socket, or over the health port. */
export async function checkDaemon(paths: Paths, options: CheckOptions = {}): Promise<HealthCheck> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const probe = await probeDaemon(paths, timeoutMs).catch((err: unknown) => ({
    state: 'unhealthy' as const,
    healthy: false,
    reason: describeError(err),
    status: undefined,
  }));
  const status = probe.status;
  const answer = options.port === undefined ? null : await checkHealthPort(options.port, timeoutMs);
  if (answer ? answer.healthy : probe.healthy) return { state: 'healthy', status };
  if (answer ? answer.busy : probe.state === 'busy') return { state: 'busy', reason: answer?.reason ?? probe.reason };
  if (answer ? answer.status === 503 : probe.state === 'stopping')
    return { state: 'transient', reason: answer?.reason ?? 'the daemon answers 503 (stopping)', status };
  if (isStopped(paths)) return { state: 'stopped', reason: 'no pid file and no socket' };
  const pid = readPid(paths);
  if (pid !== null && isAlive(pid) && !existsSync(paths.socket))
    return { state: 'transient', reason: `pid ${pid} is alive without its socket (starting or stopping)` };
  if (!answer && probe.status && pid === null)
    return {
      state: 'transient',
      reason: `the socket answers but ${paths.pidFile} is not written yet (starting)`,
      status,
    };
  const dead = pid !== null && isZombie(pid) ? `pid ${pid} has exited (not reaped yet)` : undefined;
  return { state: 'failed', reason: answer?.reason ?? dead ?? probe.reason ?? describeDead(paths), status };
}

// --- internal ---

function isStopped(paths: Paths): boolean {
  return !existsSync(paths.pidFile) && !existsSync(paths.socket);
}

function describeDead(paths: Paths): string {
  const pid = readPid(paths);
  if (pid !== null && !isAlive(pid)) return `pid ${pid} in ${paths.pidFile} is not alive`;
  if (existsSync(paths.socket)) return `nothing answers on ${paths.socket}`;
  return `no daemon answers on ${paths.socket}`;
}
