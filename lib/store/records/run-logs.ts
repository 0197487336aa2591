import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
  ftruncateSync,
  appendFileSync,
  constants,
} from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { hasCode } from '../../core/errors.js';
import type { Paths } from '../disk/paths.js';

/** The cap of one run's log unless `aof.daemon.runLogMaxBytes` says otherwise (10 MiB). */
export const DEFAULT_RUN_LOG_MAX_BYTES = 10 * 1024 * 1024;

/** Who a run log belongs to: its first line names them. */
export interface RunLogHeader {
  taskId: string;
  /** A local agent's run, or a check's. */
  kind: 'agent' | 'check';
  /** The agent id, or the check's name. */
  name: string;
  session: string;
  startedAt: Date;
}

/** A run log just created: append the run's output to `fd` (opened for appending). */
export interface OpenedRunLog {
  path: string;
  fd: number;
}

/** One run log of a task, as `svc task logs` lists it. */
export interface RunLogEntry {
  path: string;
  file: string;
  kind: 'agent' | 'check' | null;
  name: string | null;
  session: string | null;
  startedAt: string | null;
  /** The end line, when the run ended while its writer watched it (`exit code 0`, `killed by SIGTERM`). */
  ended: string | null;
  bytes: number;
}

/**
 * Creates `data/logs/runs/<task id>/<prefix>-<n>.log` (prefix: the session, or the check's name;
 * n: the first number free for that prefix) with its header line, and opens it for appending.
 */
export function openRunLog(paths: Paths, prefix: string, header: RunLogHeader): OpenedRunLog {
  const dir = paths.runLogDir(header.taskId);
  mkdirSync(dir, { recursive: true });
  const safe = prefix.replace(/[^A-Za-z0-9._-]/g, '_');
  for (let n = 1; ; n++) {
    const path = join(dir, `${safe}-${n}.log`);
    let fd: number;
    try {
      fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND, 0o600);
    } catch (err) {
      if (hasCode(err, 'EEXIST')) continue;
      throw err;
    }
    writeSync(fd, `${formatHeader(header)}\n`);
    return { path, fd };
  }
}

/** The header line of a run log. */
export function formatHeader(header: RunLogHeader): string {
  return (
    `${MARK} svc run: task ${header.taskId}, ${header.kind} ${header.name}, ` +
    `session ${header.session}, started ${header.startedAt.toISOString()} ${MARK}`
  );
}

/** Appends the end line of a run (`exit code 0`, `killed by SIGKILL`, `timed out`): a follower stops there. */
export function endRunLog(path: string, how: string, at: Date): void {
  const fd = openSync(path, 'r');
  let last: Buffer;
  try {
    last = readAt(fd, Math.max(0, fstatSync(fd).size - 1), 1);
  } finally {
    closeSync(fd);
  }
  const start = last.length && last[0] !== 10 ? '\n' : ''; // the end line starts a line of its own
  appendFileSync(path, `${start}${MARK} svc run ended: ${how.replace(/\s+/g, ' ')} at ${at.toISOString()} ${MARK}\n`);
}

/**
 * Keeps a run log within `maxBytes`: when it is larger, its header line, a line saying earlier
 * output was dropped, and its tail are written over the head, and the file is cut there. Output a
 * writer appends during the cut is carried over; a few bytes appended in the instant between the
 * last look and the cut can be lost. Returns whether it cut.
 */
export function trimRunLog(path: string, maxBytes: number): boolean {
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    if (size <= maxBytes) return false;
    const head = readAt(fd, 0, Math.min(size, 4096));
    const headerEnd = head.indexOf(10);
    const header =
      headerEnd >= 0 && head.subarray(0, 3).toString() === MARK ? head.subarray(0, headerEnd + 1) : Buffer.alloc(0);
    const note = Buffer.from(`${MARK} svc: earlier output dropped to keep this log within ${maxBytes} bytes ${MARK}\n`);
    const keep = Math.max(0, maxBytes - header.length - note.length);
    let tail = readAt(fd, size - keep, keep);
    writeSync(fd, Buffer.concat([header, note, tail]), 0, undefined, 0);
    let end = header.length + note.length + tail.length;
    for (let seen = size, now = fstatSync(fd).size; now > seen; seen = now, now = fstatSync(fd).size) {
      tail = readAt(fd, seen, now - seen); // appended while we cut: carried over
      writeSync(fd, tail, 0, tail.length, end);
      end += tail.length;
    }
    ftruncateSync(fd, end);
    return true;
  } finally {
    closeSync(fd);
  }
}

/** The run logs of a task, in the order their runs started (a task without any has none). */
export async function listRunLogs(paths: Paths, taskId: string): Promise<RunLogEntry[]> {
  const dir = paths.runLogDir(taskId);
  const names = await readdir(dir).catch((err: unknown) => (hasCode(err, 'ENOENT') ? [] : Promise.reject(err)));
  const entries = await Promise.all(
    names
      .filter((name) => name.endsWith('.log') && !name.startsWith('.'))
      .map((file) => readEntry(join(dir, file), file)),
  );
  return entries
    .filter((entry): entry is RunLogEntry => entry !== null)
    .sort(
      (a, b) =>
        (a.startedAt ?? '').localeCompare(b.startedAt ?? '') || a.file.localeCompare(b.file, 'en', { numeric: true }),
    );
}

/** True when a line of a run log is the end line `endRunLog` writes. */
export function isEndLine(line: string): boolean {
  return line.startsWith(`${MARK} svc run ended: `);
}

// --- internal ---

const MARK = '===';
const HEADER = /^=== svc run: task (\S+), (agent|check) (\S+), session (\S+), started (\S+) ===$/;
const END = /(?:^|\n)=== svc run ended: (.*) at \S+ ===\n$/;

async function readEntry(path: string, file: string): Promise<RunLogEntry | null> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 1024));
    await handle.read(head, 0, head.length, 0);
    const tail = Buffer.alloc(Math.min(size, 512));
    await handle.read(tail, 0, tail.length, size - tail.length);
    const match = HEADER.exec(head.toString('utf8').split('\n')[0] ?? '');
    const end = END.exec(tail.toString('utf8'));
    return {
      path,
      file,
      kind: (match?.[2] as 'agent' | 'check' | undefined) ?? null,
      name: match?.[3] ?? null,
      session: match?.[4] ?? null,
      startedAt: match?.[5] ?? null,
      ended: end?.[1] ?? null,
      bytes: size,
    };
  } finally {
    await handle.close();
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let total = 0;
  while (total < length) {
    const read = readSync(fd, buffer, total, length - total, position + total);
    if (read === 0) break;
    total += read;
  }
  return buffer.subarray(0, total);
}
