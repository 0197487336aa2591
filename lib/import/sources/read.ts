import { readFile, stat } from 'node:fs/promises';
import { hasCode, SvcError } from '../../core/errors.js';
import type { Priority } from '../../core/priority.js';

/** Largest source file read (an export of a big tree is larger than one task file). */
export const MAX_SOURCE_BYTES = 256 * 1024 * 1024;

/** Reads a source file, or throws a clear error naming what the source expects. */
export async function readSourceFile(path: string, expects: string): Promise<string> {
  const found = await stat(path).catch((err: unknown) => (hasCode(err, 'ENOENT') || hasCode(err, 'ENOTDIR') ? null : Promise.reject(err)));
  if (!found) throw new SvcError('not_found', `${path} does not exist; expected ${expects}.`, 'Check the path.');
  if (!found.isFile()) throw new SvcError('validation_error', `${path} is not a file; expected ${expects}.`, 'Give the path of the file itself.');
  if (found.size > MAX_SOURCE_BYTES) throw new SvcError('too_large', `${path} has ${found.size} bytes; the limit is ${MAX_SOURCE_BYTES}.`, 'Split the source.');
  return readFile(path, 'utf8');
}

/** A time as svc writes it (ISO 8601 in UTC), or undefined for a missing or unreadable one. */
export function toIsoTime(value: unknown): string | undefined {
  if (typeof value !== 'string' && !(value instanceof Date)) return undefined;
  const text = typeof value === 'string' ? value.trim().replace(/^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})$/, '$1T$2:00Z') : value;
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
  return (err instanceof Error ? err.message : String(err)).replace(/:\s*\n\s*/g, ': ').replace(/\s*\n\s*/g, '; ');
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
