import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SvcError } from '../../../core/errors.js';
import { parseFrontmatter } from '../../../fs/frontmatter.js';
import { finishAof } from './finish.js';
import type { ImportSource, SourceRead } from '../record.js';
import { attachHistory, readAofEvents } from './events.js';
import { AOF_STATUSES, createGateLookup, toAofRecord, type AofStore } from './task.js';
import { readSourceFile, toReason } from '../read.js';

/**
 * `svc import aof <dir>`: an AOF data directory (docs/import.md): `tasks/<status>/<id>.md`,
 * `Projects/<project>/tasks/<status>/<id>.md`, `org/org-chart.yaml` (merged by `aof-org.ts`) and
 * `events/*.jsonl` (kept, and summarised in each task's `task.imported` event).
 */
export const aofSource: ImportSource = {
  system: 'aof',
  expects: 'an AOF data directory (with tasks/<status>/ or Projects/<project>/tasks/)',
  async read(path, options) {
    const stores = await findStores(path);
    if (stores.length === 0) {
      throw new SvcError(
        'validation_error',
        `${path} is not an AOF data directory: it has neither tasks/ nor Projects/<project>/tasks/.`,
        `Give the directory AOF keeps its data in (expected ${this.expects}).`,
      );
    }
    const out: SourceRead = { records: [], problems: [] };
    const gateOf = createGateLookup(options.root);
    for (const store of stores) {
      for (const status of AOF_STATUSES) {
        const dir = join(store.tasksDir, status);
        const names = await readdir(dir).catch(() => [] as string[]);
        for (const name of names.filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort()) {
          const file = join(dir, name);
          try {
            const parsed = parseFrontmatter(await readSourceFile(file, 'an AOF task file', path), file);
            const companion = await toCompanion(join(dir, name.slice(0, -3)));
            out.records.push(
              await toAofRecord(parsed, {
                file,
                status,
                store,
                keepStatus: options.keepStatus === true,
                gateOf,
                ...(companion ? { companion } : {}),
              }),
            );
          } catch (err) {
            out.problems.push({ file, reason: toReason(err).replace(`${file}: `, '') });
          }
        }
      }
    }
    const events = await readAofEvents(path, stores);
    out.problems.push(...events.problems);
    attachHistory(out.records, events.byTask);
    return out;
  },
  async finish(path, store, options) {
    return finishAof({ path, stores: await findStores(path) }, store, options);
  },
};

// --- internal ---

/** The root store (`tasks/`) and each project's (`Projects/<project>/tasks/`). */
async function findStores(path: string): Promise<AofStore[]> {
  const isDir = async (dir: string) => (await stat(dir).catch(() => null))?.isDirectory() === true;
  const stores: AofStore[] = [];
  if (await isDir(join(path, 'tasks'))) stores.push({ tasksDir: join(path, 'tasks'), scope: '' });
  const projects = await readdir(join(path, 'Projects')).catch(() => [] as string[]);
  for (const name of projects.filter((n) => !n.startsWith('.')).sort()) {
    if (await isDir(join(path, 'Projects', name, 'tasks')))
      stores.push({
        tasksDir: join(path, 'Projects', name, 'tasks'),
        scope: `${name}/`,
        project: name,
        eventsDir: join(path, 'Projects', name, 'events'),
      });
  }
  return stores;
}

/** A task's companion folder (`<id>/` beside its file: inputs/, work/, outputs/, ...) when it holds any file. */
async function toCompanion(dir: string): Promise<string | undefined> {
  const hasFile = async (at: string): Promise<boolean> => {
    const entries = await readdir(at, { withFileTypes: true }).catch(() => []);
    for (const entry of entries)
      if (entry.isFile() || (entry.isDirectory() && (await hasFile(join(at, entry.name))))) return true;
    return false;
  };
  return (await hasFile(dir)) ? dir : undefined;
}
