import { closeSync, writeSync } from 'node:fs';
import { DEFAULT_RUN_LOG_MAX_BYTES, endRunLog, openRunLog, trimRunLog } from '../../store/records/run-logs.js';
import type { Paths } from '../../store/disk/paths.js';

/** What a check's log header names. */
export interface CheckLogHeader {
  taskId: string;
  check: string;
  session: string;
  startedAt: Date;
}

/** An open check log: append output, keep its last bytes in memory, end with the outcome. */
export interface RunLog {
  path: string;
  write(chunk: Buffer): void;
  /** The last `bytes` of the output (not of the header), as text. */
  tail(bytes?: number): string;
  /** Writes the end line (`exit code 1`, `timed out`) so a follower stops, cuts the log to its cap and closes it. */
  close(how: string, at: Date): void;
}

/**
 * Opens a check's run log `data/logs/runs/<task id>/check-<name>-<n>.log` through the run-log
 * store (the header, numbering and cap every run log has: docs/approvals-and-logs.md). The file is
 * cut to `maxBytes` (keeping the tail) whenever it grows past twice that, and at the end.
 */
export function openCheckLog(paths: Paths, header: CheckLogHeader, maxBytes = DEFAULT_RUN_LOG_MAX_BYTES): RunLog {
  const { path, fd } = openRunLog(paths, `check-${header.check}`, {
    taskId: header.taskId,
    kind: 'check',
    name: header.check,
    session: header.session,
    startedAt: header.startedAt,
  });
  let written = 0;
  let last = Buffer.alloc(0);
  return {
    path,
    write(chunk) {
      writeSync(fd, chunk); // the descriptor appends: a cut below leaves the next write at the new end
      written += chunk.length;
      last = Buffer.concat([last, chunk]).subarray(-TAIL_KEPT);
      if (written > 2 * maxBytes) {
        trimRunLog(path, maxBytes);
        written = maxBytes;
      }
    },
    tail: (bytes = 4096) => last.subarray(-bytes).toString('utf8'),
    close(how, at) {
      closeSync(fd);
      endRunLog(path, how, at);
      trimRunLog(path, maxBytes);
    },
  };
}

// --- internal ---

/** How much of the output's end is kept in memory for the task's body. */
const TAIL_KEPT = 64 * 1024;
