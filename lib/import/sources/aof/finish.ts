import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hasCode } from '../../../core/errors.js';
import { ensureDir, writeAtomic } from '../../../fs/atomic.js';
import { withLock } from '../../../fs/lock/lock.js';
import type { Store } from '../../../store/commit/store.js';
import { mergeAofOrg } from './org.js';
import type { ImportExtras } from '../record.js';
import { readAofEvents } from './events.js';
import type { AofStore } from './task.js';

/** The file AOF's event lines are kept in, under the root. */
export const AOF_EVENTS_FILE = 'data/imports/aof-events.jsonl';

/** An AOF export: its folder and the task stores found in it. */
export interface AofExport {
  path: string;
  stores: readonly AofStore[];
}

/**
 * What an AOF import brings besides tasks (docs/import.md): its org chart, merged into svc's, and
 * its event lines, kept byte for byte in `data/imports/aof-events.jsonl` (a line already kept is
 * not added again, so a second import adds nothing). A dry run reports both and writes neither.
 */
export async function finishAof(export_: AofExport, store: Store, options: { dryRun: boolean }): Promise<ImportExtras> {
  if (options.dryRun) return writeExtras(export_, store, options);
  // Under the import's lock, so two imports at once do not both append the same lines.
  await ensureDir(store.paths.imports, 0o700);
  return withLock(join(store.paths.imports, '.aof.lock'), { what: 'the aof import', waitMs: 30_000 }, () =>
    writeExtras(export_, store, options),
  );
}

// --- internal ---

async function writeExtras(export_: AofExport, store: Store, options: { dryRun: boolean }): Promise<ImportExtras> {
  const { path, stores } = export_;
  const out: ImportExtras = {};
  const org = await mergeAofOrg(path, store.paths.root, { dryRun: options.dryRun, backupDir: store.paths.imports });
  if (org) out.org = org;
  const { lines } = await readAofEvents(path, stores);
  if (lines.length === 0) return out;
  const file = join(store.paths.imports, 'aof-events.jsonl');
  const kept = await readFile(file, 'utf8').catch((err: unknown) =>
    hasCode(err, 'ENOENT') ? '' : Promise.reject(err),
  );
  const have = new Set(kept.split('\n').filter(Boolean));
  const added = [...new Set(lines)].filter((line) => !have.has(line));
  if (!options.dryRun && added.length) {
    await writeAtomic(file, `${kept}${added.map((line) => `${line}\n`).join('')}`);
  }
  out.events = { file: AOF_EVENTS_FILE, lines: have.size + added.length, added: added.length };
  return out;
}
