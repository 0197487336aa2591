import { lstatSync, type BigIntStats } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Status } from '../../core/status.js';
import { readRegularFileSync } from '../../fs/regular-file.js';
import type { ListRow } from './task-row.js';

/** A file version: inode, size and mtime in nanoseconds (what a rewrite, a replace or a move by hand changes). */
export interface RowStamp {
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
}

/**
 * The rows of one status directory as last read, each with the identity of the file version it
 * came from (docs/architecture.md, "Listing without a daemon"). A row is used only for the very same
 * version of the file; one whose mtime is within `RACY_NS` of the cache's own write is read again
 * (a file rewritten in place within one mtime tick keeps its stamp), so the cache is never wrong.
 */
export interface RowCache {
  /** The row of `name` when `stat` is the version it was read from, else undefined. */
  get(name: string, stat: RowStamp): Omit<ListRow, 'path'> | undefined;
  /** Records the row read from this version of `name`. */
  set(name: string, stamp: RowStamp, row: ListRow): void;
  /** Writes the cache when a row was added, changed or dropped (names not in `present`); a failure is ignored. */
  save(present: ReadonlySet<string>): Promise<void>;
}

/** Loads the cache of `status` (`paths.rowCache(status)`); a missing, foreign or damaged file is an empty cache. */
export function loadRowCache(file: string, status: Status, version: string): RowCache {
  const loaded = readCache(file, status, version);
  const entries = loaded?.entries ?? {};
  const trustedBefore = loaded ? loaded.writtenNs - RACY_NS : -1n;
  let changed = false;
  return {
    get(name, stat) {
      const entry = entries[name];
      if (!entry || !isRowShaped(entry) || BigInt(entry.mtimeNs) >= trustedBefore) return undefined;
      return entry.ino === String(stat.ino) &&
        entry.size === String(stat.size) &&
        entry.mtimeNs === String(stat.mtimeNs)
        ? entry.row
        : undefined;
    },
    set(name, stamp, row) {
      const { path: _path, ...rest } = row;
      entries[name] = { ino: String(stamp.ino), size: String(stamp.size), mtimeNs: String(stamp.mtimeNs), row: rest };
      changed = true;
    },
    async save(present) {
      for (const name of Object.keys(entries)) {
        if (present.has(name)) continue;
        delete entries[name];
        changed = true;
      }
      if (!changed) return;
      try {
        await mkdir(dirname(file), { recursive: true, mode: 0o700 });
        const { writeAtomic } = await import('../../fs/atomic.js');
        await writeAtomic(file, JSON.stringify({ format: FORMAT, version, status, entries }));
      } catch {
        // a cache that cannot be written (a read-only data/) only costs the next listing its reads
      }
    },
  };
}

/** The lstat of a task file as a stamp (bigint, nanoseconds); throws as lstat does. */
export function stampOf(path: string): RowStamp {
  const stat: BigIntStats = lstatSync(path, { bigint: true });
  return { ino: stat.ino, size: stat.size, mtimeNs: stat.mtimeNs };
}

// --- internal ---

/** Changes whenever the shape of a cached row changes (a cache of another format is ignored). */
const FORMAT = 1;
/**
 * Files changed less than this before the cache was written are read again: the coarsest mtime tick of a filesystem in
 * use (2 s, FAT).
 */
const RACY_NS = 2_000_000_000n;
/** A cache larger than this is ignored (100,000 rows take about 40 MiB). */
const MAX_CACHE_BYTES = 256 * 1024 * 1024;

interface Entry {
  ino: string;
  size: string;
  mtimeNs: string;
  row: Omit<ListRow, 'path'>;
}

function readCache(
  file: string,
  status: Status,
  version: string,
): { entries: Record<string, Entry>; writtenNs: bigint } | null {
  try {
    const { text, stat } = readRegularFileSync(file, MAX_CACHE_BYTES);
    const data = JSON.parse(text) as { format?: unknown; version?: unknown; status?: unknown; entries?: unknown };
    if (data.format !== FORMAT || data.version !== version || data.status !== status) return null;
    if (data.entries === null || typeof data.entries !== 'object' || Array.isArray(data.entries)) return null;
    return {
      entries: Object.assign(Object.create(null) as Record<string, Entry>, data.entries),
      writtenNs: stat.mtimeNs,
    };
  } catch {
    return null;
  }
}

/** An entry as this version writes it (a hand-edited or damaged one is read again, not trusted). */
function isRowShaped(entry: Entry): boolean {
  const { row } = entry;
  if (typeof entry.mtimeNs !== 'string' || !/^\d+$/.test(entry.mtimeNs) || row === null || typeof row !== 'object')
    return false;
  return (
    ['id', 'title', 'status', 'priority', 'project', 'createdAt', 'updatedAt'].every(
      (key) => typeof row[key as keyof typeof row] === 'string',
    ) && Array.isArray(row.dependsOn)
  );
}
