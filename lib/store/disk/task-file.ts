import { basename, dirname } from 'node:path';
import { SvcError } from '../../core/errors.js';
import { isStatus, type Status } from '../../core/status.js';
import { parseTask, toOrderedTask, type Task } from '../../core/task.js';
import { toOneLine } from '../../core/text.js';
import {
  MAX_FILE_BYTES,
  MAX_FRONTMATTER_BYTES,
  parseFrontmatter,
  readBackData,
  stringifyFrontmatter,
} from '../../fs/frontmatter.js';
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
 * Renders a task file: frontmatter in the stable key order, then the body. Refuses what could not
 * be read back exactly as given (too large, nested deeper than the reader allows, anything the
 * reader would change), so a refused write never leaves a file svc's own reader rejects.
 */
export function renderTask(task: Task, body: string, label: string = task.id): string {
  const data = toOrderedTask(task);
  const text = stringifyFrontmatter(data, body);
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
  assertReadsBack(label, data, text);
  return text;
}

/** True when two stamps name the same version of a file. */
export function isSameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

// --- internal ---

function assertReadsBack(id: string, data: Record<string, unknown>, text: string): void {
  let back: Task;
  try {
    back = parseTask(readBackData(text, id), id);
  } catch (err) {
    const reason = err instanceof Error ? toOneLine(err.message.replace(`${id}: `, '')) : String(err);
    throw new SvcError('validation_error', `${id}: the task file would not read back: ${reason}`, {
      hint: 'Keep metadata plain and shallow (at most 30 levels of nesting); nothing was written.',
      cause: err,
    });
  }
  const path = findDifference(data, toOrderedTask(back), '');
  if (path !== null) {
    throw new SvcError(
      'validation_error',
      `${id}: the task file would not read back as written (\`${path || '(root)'}\` changes).`,
      'Use plain strings, numbers, booleans, lists and mappings in metadata; nothing was written.',
    );
  }
}

/** The path of the first difference between two plain values (key order ignored), or null when equal. */
function findDifference(a: unknown, b: unknown, path: string): string | null {
  if (Object.is(a, b)) return null;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return path;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length)
    return (
      `${path}${path ? '.' : ''}` +
      `${[...keysA, ...keysB].find((key) => !(Object.hasOwn(a, key) && Object.hasOwn(b, key))) ?? ''}`
    );
  for (const key of keysA) {
    if (!Object.hasOwn(b, key)) return `${path}${path ? '.' : ''}${key}`;
    const found = findDifference(
      (a as Record<string, unknown>)[key],
      (b as Record<string, unknown>)[key],
      `${path}${path ? '.' : ''}${key}`,
    );
    if (found !== null) return found;
  }
  return null;
}
