import { closeSync, mkdirSync, openSync, readdirSync, readSync, fstatSync, ftruncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Largest run log kept (10 MiB): past it, the start of the output is cut and the tail kept. */
export const MAX_RUN_LOG_BYTES = 10 * 1024 * 1024;

/** What a run log's header names. */
export interface RunLogHeader {
  taskId: string;
  /** `check <name>` or `agent <id>`. */
  what: string;
  session: string;
  startedAt: string;
}

/** An open run log: append output, keep its last bytes in memory, close. */
export interface RunLog {
  path: string;
  write(chunk: Buffer): void;
  /** The last `bytes` of the output (not of the header), as text. */
  tail(bytes?: number): string;
  close(): void;
}

/**
 * Opens `<dir>/<task id>/<name>-<n>.log` with the next free `n` (`name` is `check-<check>` or a
 * session), a header line first. The file is capped at `maxBytes` (10 MiB), keeping the tail.
 */
export function openRunLog(dir: string, name: string, header: RunLogHeader, maxBytes = MAX_RUN_LOG_BYTES): RunLog {
  const folder = join(dir, header.taskId);
  mkdirSync(folder, { recursive: true });
  const n = nextNumber(folder, name);
  const path = join(folder, `${name}-${n}.log`);
  const fd = openSync(path, 'wx+', 0o600); // read back when the cap cuts the start
  const head = Buffer.from(`# task ${header.taskId} ${header.what} session ${header.session} started ${header.startedAt}\n`);
  writeSync(fd, head, 0, head.length, 0);
  let size = head.length;
  let last = Buffer.alloc(0);
  return {
    path,
    write(chunk) {
      writeSync(fd, chunk, 0, chunk.length, size); // positional: the cut below rewrites the file from 0
      size += chunk.length;
      last = Buffer.concat([last, chunk]).subarray(-TAIL_KEPT);
      if (size > maxBytes + Math.min(maxBytes, 1024 * 1024)) size = keepTail(fd, head, maxBytes);
    },
    tail: (bytes = 4096) => last.subarray(-bytes).toString('utf8'),
    close: () => closeSync(fd),
  };
}

// --- internal ---

const TAIL_KEPT = 64 * 1024;

function nextNumber(folder: string, name: string): number {
  const pattern = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)\\.log$`);
  const used = readdirSync(folder).map((file) => Number(pattern.exec(file)?.[1] ?? 0));
  return Math.max(0, ...used) + 1;
}

/** Rewrites the file as its header, a cut mark, and its last `maxBytes` bytes; returns the new size. */
function keepTail(fd: number, head: Buffer, maxBytes: number): number {
  const size = fstatSync(fd).size;
  const tail = Buffer.alloc(Math.min(maxBytes, size - head.length));
  readSync(fd, tail, 0, tail.length, size - tail.length);
  const mark = Buffer.from(`[... earlier output cut: the log keeps its last ${maxBytes} bytes ...]\n`);
  ftruncateSync(fd, 0);
  writeSync(fd, head, 0, head.length, 0);
  writeSync(fd, mark, 0, mark.length, head.length);
  writeSync(fd, tail, 0, tail.length, head.length + mark.length);
  return head.length + mark.length + tail.length;
}
