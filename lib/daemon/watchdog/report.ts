import { closeSync, openSync, readdirSync, readSync, fstatSync } from 'node:fs';
import type { Paths } from '../../store/disk/paths.js';
import { toTaskId } from '../../store/disk/paths.js';
import type { HealthCheck } from './check.js';
import type { StatusBody } from '../../net/protocol/status.js';

/** One restart (or the refusal to restart) in the watchdog's history. */
export interface RestartRecord {
  at: string;
  reason: string;
  /**
   * What came of it: `restarted (pid 123, directly)`, `restart failed: ...`, `not restarted: limit reached`, or
   * `started (...)` for the watchdog's first start of a daemon not running.
   */
  outcome: string;
}

/** What the critical report is made of. */
export interface ReportInput {
  paths: Paths;
  now: Date;
  maxRestarts: number;
  windowMs: number;
  history: readonly RestartRecord[];
  current: HealthCheck;
  lastHealthy: { at: string; status?: StatusBody } | null;
  lastPollAt: string;
}

/** Task counts of the report: open (backlog), ready, in progress, blocked, done. */
export interface TaskCounts {
  open: number;
  ready: number;
  inProgress: number;
  blocked: number;
  done: number;
}

/**
 * The critical report printed when the restart limit is exceeded: summary, restart history
 * (times and reasons), current health (status, uptime, last poll, last event), task counts and
 * the action required.
 */
export function formatCriticalReport(input: ReportInput): string[] {
  const { paths, current, lastHealthy } = input;
  // not a first start, nor the refusal
  const restarts = input.history.filter((r) => /^restart(ed|\s+failed)/.test(r.outcome)).length;
  const counts = countTasks(paths);
  const last = readLastEvent(paths);
  const seen = lastHealthy?.status;
  return [
    `[AOF] WATCHDOG CRITICAL: the svc daemon of ${paths.root} keeps failing; the watchdog stopped restarting it.`,
    `Summary: ${restarts} restart(s) within ${formatMs(input.windowMs)} reached restartPolicy.maxRestarts ` +
      `= ${input.maxRestarts}; the daemon failed again: ${current.reason ?? current.state}.`,
    'Restart history:',
    ...input.history.map((r) => `  ${r.at}  ${r.reason} -> ${r.outcome}`),
    'Current health:',
    `  Status: ` +
      (current.state === 'healthy'
        ? 'healthy'
        : `${STATE_WORDS[current.state]} (${current.reason ?? 'no reason given'})`),
    `  Uptime: ` +
      (current.status
        ? formatMs(current.status.uptimeMs)
        : 'none' +
          (lastHealthy
            ? ` (last healthy at ${lastHealthy.at}${seen ? `, up ${formatMs(seen.uptimeMs)}` : ''})`
            : ' (never seen healthy by this watchdog)')),
    `  Last poll: watchdog ${input.lastPollAt}; scheduler ` +
      `${(current.status ?? seen)?.scheduler.lastPollAt ?? 'unknown'}`,
    `  Last event: ${last ? `${last.timestamp} ${last.type}${last.taskId ? ` ${last.taskId}` : ''}` : 'none'}`,
    `Tasks: open ${counts.open}, ready ${counts.ready}, in progress ` +
      `${counts.inProgress}, blocked ${counts.blocked}, done ${counts.done}`,
    `Action required: read ${paths.daemonLog} and ${paths.watchdogLog}, fix the cause, then start ` +
      `the daemon with \`svc daemon start\` and the watchdog again with \`svc daemon watchdog\`.`,
  ];
}

/** Counts the task files of each status directory (names only; nothing is parsed). */
export function countTasks(paths: Paths): TaskCounts {
  const count = (status: 'backlog' | 'ready' | 'in-progress' | 'blocked' | 'done') => {
    try {
      return readdirSync(paths.statusDir(status)).filter((name) => toTaskId(name) !== null).length;
    } catch {
      return 0;
    }
  };
  return {
    open: count('backlog'),
    ready: count('ready'),
    inProgress: count('in-progress'),
    blocked: count('blocked'),
    done: count('done'),
  };
}

/** The last complete event of the newest event file (reads its last 64 KiB only), or null. */
export function readLastEvent(paths: Paths): { timestamp: string; type: string; taskId?: string } | null {
  let files: string[];
  try {
    files = readdirSync(paths.events)
      .filter((name) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(name))
      .sort()
      .reverse();
  } catch {
    return null;
  }
  for (const name of files) {
    const lines = readTail(`${paths.events}/${name}`, 64 * 1024)
      .split('\n')
      .reverse();
    for (const line of lines) {
      try {
        const event = JSON.parse(line) as { timestamp?: unknown; type?: unknown; taskId?: unknown };
        if (typeof event.timestamp === 'string' && typeof event.type === 'string')
          return {
            timestamp: event.timestamp,
            type: event.type,
            ...(typeof event.taskId === 'string' ? { taskId: event.taskId } : {}),
          };
      } catch {
        // a torn or partial line: look further back
      }
    }
  }
  return null;
}

/** A duration as `1h 2m 3s`. */
export function formatMs(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const [d, h, m, s] = [
    Math.floor(total / 86400),
    Math.floor(total / 3600) % 24,
    Math.floor(total / 60) % 60,
    total % 60,
  ];
  const text = [d ? `${d}d` : '', h ? `${h}h` : '', m ? `${m}m` : '', s ? `${s}s` : ''].filter(Boolean).join(' ');
  return text || `${ms} ms`;
}

// --- internal ---

const STATE_WORDS = {
  failed: 'down',
  stopped: 'stopped',
  transient: 'starting or stopping',
  busy: 'busy (alive, answering 503)',
} as const;

function readTail(file: string, bytes: number): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
