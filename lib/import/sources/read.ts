import { lstat, readlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { describeError, hasCode, SvcError } from '../../core/errors.js';
import type { Priority } from '../../core/priority.js';
import { describeEntry, readRegularFile } from '../../fs/regular-file.js';

/** Largest source file read (an export of a big tree is larger than one task file). */
export const MAX_SOURCE_BYTES = 256 * 1024 * 1024;

/**
 * Reads a source file, or throws a clear error naming what the source expects. Only a regular file
 * is read, never through a symbolic link: not the file itself (opened without following one), nor,
 * with `tree`, a folder between the source's directory and the file (a link planted in a project
 * could otherwise make any file of the machine a task's body).
 */
export async function readSourceFile(path: string, expects: string, tree?: string): Promise<string> {
  const found = await lstat(path).catch((err: unknown) =>
    hasCode(err, 'ENOENT') || hasCode(err, 'ENOTDIR') ? null : Promise.reject(err),
  );
  if (!found) throw new SvcError('not_found', `${path} does not exist; expected ${expects}.`, 'Check the path.');
  if (found.isSymbolicLink())
    throw new SvcError(
      'validation_error',
      `${path} is ${await describeLink(path)}, not a regular file: ` +
        `svc reads no import file through a link; expected ${expects}.`,
      'Copy the file itself into place, or give its real path.',
    );
  if (!found.isFile())
    throw new SvcError(
      'validation_error',
      `${path} is not a file (${describeEntry(found)}); expected ${expects}.`,
      'Give the path of the file itself.',
    );
  if (tree) await assertNoLinkOnTheWay(tree, path);
  if (found.size > MAX_SOURCE_BYTES)
    throw new SvcError(
      'too_large',
      `${path} has ${found.size} bytes; the limit is ${MAX_SOURCE_BYTES}.`,
      'Split the source.',
    );
  return (await readRegularFile(path, MAX_SOURCE_BYTES)).text;
}

/** A time as svc writes it (ISO 8601 in UTC), or undefined for a missing or unreadable one. */
export function toIsoTime(value: unknown): string | undefined {
  if (typeof value !== 'string' && !(value instanceof Date)) return undefined;
  const text =
    typeof value === 'string' ? value.trim().replace(/^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})$/, '$1T$2:00Z') : value;
  const time = new Date(typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  return Number.isFinite(time.getTime()) ? time.toISOString() : undefined;
}

/** Strings of a list (or one string), others dropped. */
export function toStrings(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' && value ? [value] : [];
  return list.filter((item): item is string => typeof item === 'string' && item.length > 0);
}

/** A problem's reason from an error. */
export function toReason(err: unknown): string {
  return describeError(err)
    .replace(/:\s*\n\s*/g, ': ')
    .replace(/\s*\n\s*/g, '; ');
}

/** A priority named by words other trackers use (critical, urgent, high, medium, normal, low). */
export function toPriority(value: unknown): Priority | undefined {
  const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (word === 'critical' || word === 'urgent') return 'critical';
  if (word === 'high') return 'high';
  if (word === 'medium' || word === 'normal') return 'normal';
  if (word === 'low') return 'low';
  return undefined;
}

// --- internal ---

/** Refuses a file outside `tree`, or one reached through a folder that is a symbolic link below `tree`. */
async function assertNoLinkOnTheWay(tree: string, path: string): Promise<void> {
  const rel = relative(resolve(tree), resolve(dirname(path)));
  if (rel.startsWith('..') || isAbsolute(rel))
    throw new SvcError(
      'validation_error',
      `${path} is outside the source ${tree}: not read.`,
      'Keep the files of a source inside its directory.',
    );
  let at = resolve(tree);
  for (const part of rel ? rel.split(/[\\/]/) : []) {
    at = join(at, part);
    if ((await lstat(at)).isSymbolicLink())
      throw new SvcError(
        'validation_error',
        `${path} is reached through ${at}, ${await describeLink(at)}: svc reads no import file through a link.`,
        'Copy the folder itself into place, or import from its real path.',
      );
  }
}

async function describeLink(path: string): Promise<string> {
  const target = await readlink(path).catch(() => null);
  return target === null ? 'a symbolic link' : `a symbolic link to ${target}`;
}
