import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SpawnRequest } from '../core/spawn.js';
import { toPaths } from '../store/disk/paths.js';
import { endRunLog, openRunLog, trimRunLog } from '../store/records/run-logs.js';

/** Where a local agent's output goes. */
export interface RunOutputOptions {
  root: string;
  /** The shared log: one line per run start and end, naming the run's own log. */
  logFile: string;
  /** The cap of one run's log (`aof.daemon.runLogMaxBytes`). */
  maxBytes: () => number;
  /** How often a running agent's log is looked at to keep it within twice the cap (1 s). */
  trimEveryMs?: number;
  now?: () => Date;
}

/** The log of one run: its descriptor for the child, and what ends it. */
export interface RunOutput {
  path: string;
  /** The descriptor the agent writes its stdout and stderr to (close it once the child has it). */
  fd: number;
  /** The agent did not start (its descriptor is closed already): the log says so. */
  failed(message: string): void;
  /** The agent exited: the log ends with how the run ended and is cut to the cap. */
  ended(how: string): void;
  /** A line of svc's own in the run's log (why the run is being ended, say). */
  note(text: string): void;
}

/**
 * Opens the log of one run of a local agent (`data/logs/runs/<task id>/<session>-<n>.log`, docs/approvals-and-logs.md).
 * While the agent runs, the log is cut back to the cap whenever it passes twice the cap; at the end,
 * to the cap, keeping the tail. The shared `agents.log` gets a line at the start and the end of the run.
 */
export function openRunOutput(options: RunOutputOptions, request: SpawnRequest): RunOutput {
  const now = options.now ?? (() => new Date());
  const startedAt = now();
  const log = openRunLog(toPaths(options.root), request.sessionId, {
    taskId: request.taskId,
    kind: 'agent',
    name: request.agent,
    session: request.sessionId,
    startedAt,
  });
  const say = (text: string) =>
    shareLine(
      options.logFile,
      `${now().toISOString()} ${request.taskId} ${request.agent} session ${request.sessionId}: ${text}`,
    );
  say(`started; output in ${log.path}`);
  const trim = (maxBytes: number) => {
    try {
      trimRunLog(log.path, maxBytes);
    } catch {
      // a log removed or unreadable meanwhile: nothing to keep small
    }
  };
  const timer = setInterval(() => trim(2 * options.maxBytes()), options.trimEveryMs ?? 1000);
  timer.unref();
  let done = false;
  const end = (how: string) => {
    if (done) return;
    done = true;
    clearInterval(timer);
    try {
      endRunLog(log.path, how, now());
    } catch {
      // the log is gone: the shared line still says how the run ended
    }
    trim(options.maxBytes()); // after the end line, which the tail then keeps
    say(`ended (${how})`);
  };
  return {
    path: log.path,
    fd: log.fd,
    failed: (message) => end(`not started: ${message}`),
    ended: end,
    note: (text) => shareLine(log.path, `[svc] ${text}`),
  };
}

// --- internal ---

function shareLine(file: string, line: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, `${line}\n`);
  } catch {
    // the shared log is a convenience: a run never fails for it
  }
}
