import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isSvcError, SvcError } from '../core/errors.js';
import type { Paths } from '../store/disk/paths.js';
import { requestDaemon, toDaemonError } from './instance/client.js';
import { findSilentDaemon } from './instance/identity.js';
import { isAlive, readPid } from './instance/pid.js';
import { ROUTES } from '../net/protocol/routes.js';
import type { StatusBody } from '../net/protocol/status.js';

/**
 * What a look at the daemon found. `healthy` follows the specification: live pid, socket 0600,
 * `/healthz` 200. `pid` is only ever a pid proven to be this root's daemon: the one answering on
 * the socket, or (when the socket does not answer) the live holder of the instance lock or a
 * process running `svc daemon run` for this root. A pid file alone proves nothing.
 */
export interface DaemonProbe {
  /** `busy`: `/healthz` was answered 503 `busy` (every connection has a request in flight): alive, not failed. */
  state: 'running' | 'busy' | 'stopping' | 'unhealthy' | 'not-running';
  healthy: boolean;
  pid: number | null;
  status?: StatusBody;
  reason?: string;
}

/**
 * Looks at the socket (`/healthz` + `/status`), then, when it does not answer, at the instance lock and the pid file.
 */
export async function probeDaemon(paths: Paths, timeoutMs = 3000): Promise<DaemonProbe> {
  let health: number;
  let status: StatusBody;
  try {
    const answer = await requestDaemon(paths.socket, ROUTES.healthz, { timeoutMs });
    health = answer.status;
    if (health === 503 && (answer.body as { reason?: unknown } | null)?.reason === 'busy') {
      return {
        state: 'busy',
        healthy: false,
        pid: findSilentDaemon(paths)?.pid ?? null,
        reason: `${paths.socket} answered 503 busy (${toDaemonError(503, answer.body).message.replace(/\.$/, '')})`,
      };
    }
    status = (await requestDaemon(paths.socket, ROUTES.status, { timeoutMs })).body as StatusBody;
  } catch (err) {
    if (!isSvcError(err, 'unavailable')) throw err;
    const silent = findSilentDaemon(paths);
    if (silent === null) return { state: 'not-running', healthy: false, pid: null };
    return {
      state: 'unhealthy',
      healthy: false,
      pid: silent.pid,
      reason:
        `pid ${silent.pid} ${silent.proof}, but ${paths.socket} does ` +
        `not answer (${(err as Error).message.replace(/\.$/, '')})`,
    };
  }
  const pid = typeof status?.pid === 'number' ? status.pid : null;
  if (health === 503) return { state: 'stopping', healthy: false, pid, status };
  const reason =
    health !== 200
      ? `${ROUTES.healthz.path} answered HTTP ${health}`
      : (pidFileProblem(paths, pid) ?? socketModeProblem(paths.socket));
  return reason
    ? { state: 'unhealthy', healthy: false, pid, status, reason }
    : { state: 'running', healthy: true, pid, status };
}

/** Polls until the daemon is healthy; fails early when `exited()` says the process is gone. */
export async function waitForHealthy(
  paths: Paths,
  timeoutMs: number,
  exited: () => string | null = () => null,
): Promise<DaemonProbe> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const probe = await probeDaemon(paths, 1000);
    if (probe.healthy) return probe;
    const gone = exited();
    if (gone)
      throw new SvcError(
        'unavailable',
        `The daemon exited before it became healthy (${gone}).${logTail(paths)}`,
        `See ${paths.daemonLog}.`,
      );
    if (Date.now() > deadline) {
      throw new SvcError(
        'unavailable',
        `The daemon did not become healthy within ${timeoutMs} ms (${probe.reason ?? probe.state}).${logTail(paths)}`,
        `See ${paths.daemonLog}.`,
      );
    }
    await sleep(50);
  }
}

/** Waits until `pid` is gone; false after `timeoutMs`. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/** Sends SIGTERM to `pid`; false when it was already gone. */
export function terminate(pid: number): boolean {
  try {
    process.kill(pid, 'SIGTERM');
    return true;
  } catch {
    return false;
  }
}

/** Options of `spawnDetached`. */
export interface SpawnDaemonOptions {
  /** The node binary and the arguments that run `svc daemon run`. */
  node: string;
  args: string[];
  env: Record<string, string | undefined>;
  /** stdout and stderr of the daemon (console alerts included) are appended here. */
  logFile: string;
}

/** Starts `svc daemon run` detached from this process; returns its pid and a way to ask whether it exited. */
export function spawnDetached(options: SpawnDaemonOptions): { pid: number; exited: () => string | null } {
  mkdirSync(dirname(options.logFile), { recursive: true, mode: 0o700 });
  const fd = openSync(options.logFile, 'a', 0o600);
  let exit: string | null = null;
  try {
    const child = spawn(options.node, options.args, { detached: true, stdio: ['ignore', fd, fd], env: options.env });
    child.on('exit', (code, signal) => (exit = signal ? `signal ${signal}` : `exit code ${code}`));
    child.on('error', (err) => (exit = err.message));
    child.unref();
    if (child.pid === undefined) throw new SvcError('internal', `Could not start ${options.node}.`);
    return { pid: child.pid, exited: () => exit };
  } finally {
    closeSync(fd);
  }
}

// --- internal ---

/**
 * The pid file must name the daemon that answers (it is written once `/healthz` answers: a start in progress has none
 * yet).
 */
function pidFileProblem(paths: Paths, pid: number | null): string | undefined {
  const filePid = readPid(paths);
  if (filePid === null) return `no pid in ${paths.pidFile} yet (starting)`;
  return filePid === pid
    ? undefined
    : `${paths.pidFile} names pid ${filePid}, but the daemon answering is pid ${pid ?? '?'}`;
}

function socketModeProblem(socket: string): string | undefined {
  try {
    const mode = statSync(socket).mode & 0o777;
    return mode === 0o600 ? undefined : `${socket} has mode ${mode.toString(8)}, not 600`;
  } catch {
    return `${socket} is missing`;
  }
}

function logTail(paths: Paths): string {
  try {
    const lines = readFileSync(paths.daemonLog, 'utf8').trimEnd().split('\n').slice(-5);
    return `\nLast log lines:\n  ${lines.join('\n  ')}`;
  } catch {
    return '';
  }
}
