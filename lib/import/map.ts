import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeError, hasCode, SvcError } from '../core/errors.js';
import { ensureDir, writeAtomic } from '../fs/atomic.js';
import type { Paths } from '../store/disk/paths.js';

/**
 * What the map keeps of one imported task: its svc id, and hashes of the source entry and of the task as svc wrote it.
 */
export interface MapEntry {
  id: string;
  sourceHash: string;
  svcHash: string;
  importedAt: string;
}

/** `data/imports/<system>.json`: source id -> what was imported. */
export interface ImportMap {
  system: string;
  entries: Record<string, MapEntry>;
}

/** The path of the map of one source. */
export function toMapPath(paths: Paths, system: string): string {
  return join(paths.imports, `${system}.json`);
}

/** Reads the map of a source (empty when none was written yet). */
export async function loadMap(paths: Paths, system: string): Promise<ImportMap> {
  const path = toMapPath(paths, system);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    // source ids such as `__proto__` are plain keys
    if (hasCode(err, 'ENOENT')) return { system, entries: Object.create(null) as Record<string, MapEntry> };
    throw err;
  }
  try {
    const data = JSON.parse(text) as ImportMap;
    if (typeof data.entries !== 'object' || data.entries === null) throw new Error('no `entries` object');
    return { system, entries: Object.assign(Object.create(null) as Record<string, MapEntry>, data.entries) };
  } catch (err) {
    throw new SvcError(
      'validation_error',
      `${path}: not an import map (${describeError(err)}).`,
      'Restore it from version control, or move it away to import everything anew (which creates the tasks again).',
    );
  }
}

/** Writes the map atomically. */
export async function saveMap(paths: Paths, map: ImportMap): Promise<void> {
  await ensureDir(paths.imports, 0o700);
  await writeAtomic(toMapPath(paths, map.system), `${JSON.stringify(map, null, 2)}\n`);
}

/** A stable hash of a plain value (keys sorted), to tell whether something changed. */
export function toHash(value: unknown): string {
  return createHash('sha256')
    .update(
      JSON.stringify(value, (_key, v: unknown) =>
        v && typeof v === 'object' && !Array.isArray(v)
          ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
          : v,
      ),
    )
    .digest('hex')
    .slice(0, 16);
}
