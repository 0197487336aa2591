import { basename, dirname } from 'node:path';
import { SvcError } from '../../core/errors.js';
import { isStatus, type Status } from '../../core/status.js';
import { parseTask, toOrderedTask, type Task } from '../../core/task.js';
import { MAX_FILE_BYTES, MAX_FRONTMATTER_BYTES, parseFrontmatter, stringifyFrontmatter } from '../../fs/frontmatter.js';
import { MAX_YAML_NESTING } from '../../fs/yaml-write.js';
import { readRegularFile } from '../../fs/regular-file.js';
import { toTaskId } from './paths.js';

/** A task as read from disk: the directory is its status; `stamp` identifies the exact file read. */
export interface StoredTask {
  task: Task;
  body: string;
  path: string;
  /** The status directory the file is in (the truth; the frontmatter may lag after a hand move). */
  status: Status;
  stamp: FileStamp;
}

/** Identity of one version of a file: a changed, replaced or rewritten file has another stamp. */
export interface FileStamp {
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
}

/** Reads and validates a task file; the error names the file and every problem. */
export async function readTaskFile(path: string): Promise<StoredTask> {
  const { text, stamp } = await readStamped(path);
  const status = basename(dirname(path));
  if (!isStatus(status))
    throw new SvcError(
      'validation_error',
      `${path}: not inside a status directory.`,
      'Task files live in tasks/<status>/.',
    );
  const parsed = parseFrontmatter(text, path);
  const task = parseTask(parsed.data, path);
  const id = toTaskId(basename(path));
  if (task.id !== id) {
    throw new SvcError(
      'validation_error',
      `${path}: the file name says ${JSON.stringify(id)} but the frontmatter id is ${JSON.stringify(task.id)}.`,
      'Rename the file to <id>.md or fix the id field.',
    );
  }
  return { task, body: parsed.body, path, status, stamp };
}

/**
 * Reads a task file with the stamp of exactly the bytes read (fstat on the same descriptor). Only
 * a regular file is read, never through a symlink, never past the size limit (docs/architecture.md,
 * "Only regular files are tasks"). Synchronous on a local disk on purpose: task files are small (at
 * most 1 MiB), and four thread-pool round trips per read cost more than the read itself; on a
 * network filesystem, where each step waits on the server, through the thread pool.
 */
export async function readStamped(path: string): Promise<{ text: string; stamp: FileStamp }> {
  const { text, stat } = await readRegularFile(path, MAX_FILE_BYTES);
  return { text, stamp: { ino: stat.ino, size: stat.size, mtimeNs: stat.mtimeNs } };
}

/**
 * Renders a task file: frontmatter in the stable key order, then the body, in one pass with no read-back: the
 * frontmatter writer (fs/yaml-write.ts) writes only what the reader reads back equal, and refuses what it cannot
 * write (nested deeper than the reader reads, a value that is no string, number, boolean, null, list or mapping)
 * with `validation_error`; a file over the size limits is `too_large`. So a refused write never leaves a file svc's
 * own reader rejects.
 */
export function renderTask(task: Task, body: string, label: string = task.id): string {
  const text = toText(toOrderedTask(task), body, label);
  const size = Buffer.byteLength(text);
  const frontmatter = size - Buffer.byteLength(body);
  if (frontmatter > MAX_FRONTMATTER_BYTES) {
    throw new SvcError(
      'too_large',
      `${label}: the frontmatter would have ${frontmatter} bytes; the limit is ${MAX_FRONTMATTER_BYTES}.`,
      'Keep metadata small; long text belongs in the body.',
    );
  }
  if (size > MAX_FILE_BYTES) {
    throw new SvcError(
      'too_large',
      `${label}: the task file would have ${size} bytes; the limit is ${MAX_FILE_BYTES}.`,
      'Shorten the body; keep large material in files and link to them.',
    );
  }
  return text;
}

/** True when two stamps name the same version of a file. */
export function isSameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

// --- internal ---

function toText(data: Record<string, unknown>, body: string, label: string): string {
  try {
    return stringifyFrontmatter(data, body);
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    throw new SvcError('validation_error', `${label}: the task file would not read back: ${err.message}.`, {
      hint: `Keep metadata plain and shallow (at most ${MAX_YAML_NESTING} levels of nesting); nothing was written.`,
      cause: err,
    });
  }
}
