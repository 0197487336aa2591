import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { hasCode } from '../core/errors.js';
import { ensureDir, writeAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock/lock.js';
import { replaceFileDurable } from '../fs/replace-file.js';
import type { EventLog } from '../store/events/log.js';
import type { Paths } from '../store/disk/paths.js';
import { isSameStamp } from '../store/disk/task-file.js';
import { planFile, type MigrationPlan, type PlannedFile } from './plan.js';
import { MIGRATIONS } from './steps.js';

/** One run of `svc migrate` as recorded in `data/migrations.json`. */
export interface MigrationRun {
  at: string;
  by: string;
  version: number;
  steps: { version: number; name: string }[];
  files: { file: string; from: number; to: number; changes: string[] }[];
  /** Files left as they were: changed since the plan, or refused. */
  skipped: { file: string; reason: string }[];
  /** Where the files were copied before they changed (relative to the root). */
  backup: string | null;
}

/** Options of `applyMigrations`: when, who, and the event log of the store. */
export interface ApplyOptions {
  now: Date;
  actor: string;
  events: EventLog;
}

/**
 * Applies a plan: each file is copied to `data/backups/<time>/` first, then rewritten under its
 * task lock if it is still the file planned; the run is appended to `data/migrations.json` and
 * each file gets a `task.migrated` event. A plan with no files records nothing.
 */
export async function applyMigrations(paths: Paths, plan: MigrationPlan, options: ApplyOptions): Promise<MigrationRun> {
  const at = options.now.toISOString();
  const backup = join(paths.backups, at.replace(/[:.]/g, '-'));
  const run: MigrationRun = {
    at,
    by: options.actor,
    version: plan.version,
    steps: [],
    files: [],
    skipped: [],
    backup: null,
  };
  for (const planned of plan.files) {
    const path = join(paths.root, planned.file);
    const status = planned.file.split('/')[1] as PlannedFile['status'];
    const lock = { what: planned.id, fence: true };
    const done = await withLock(paths.lockFile(planned.id), lock, async () => {
      const now = await planFile(path, { file: planned.file, id: planned.id, status }).catch(() => null);
      if (!now || !('after' in now) || !isSameStamp(now.stamp, planned.stamp)) return false;
      await ensureDir(dirname(join(backup, planned.file)));
      await replaceFileDurable(join(backup, planned.file), now.before);
      await replaceFileDurable(path, now.after);
      return true;
    });
    if (!done) {
      run.skipped.push({ file: planned.file, reason: 'changed since the plan was made; run svc migrate again' });
      continue;
    }
    run.files.push({ file: planned.file, from: planned.from, to: planned.to, changes: planned.changes });
    await options.events.record(options.now, [
      {
        type: 'task.migrated',
        taskId: planned.id,
        actor: options.actor,
        payload: { from: planned.from, to: planned.to, changes: planned.changes },
      },
    ]);
  }
  if (!run.files.length) return run;
  run.backup = backup.slice(paths.root.length + 1);
  const from = Math.min(...run.files.map((file) => file.from));
  run.steps = MIGRATIONS.filter((step) => step.version > from).map(({ version, name }) => ({ version, name }));
  await recordRun(paths, run);
  return run;
}

/** The runs recorded in `data/migrations.json` (none when the file does not exist). */
export async function readMigrationRuns(paths: Paths): Promise<MigrationRun[]> {
  try {
    const data = JSON.parse(await readFile(paths.migrations, 'utf8')) as { runs?: MigrationRun[] };
    return Array.isArray(data.runs) ? data.runs : [];
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return [];
    throw err;
  }
}

// --- internal ---

async function recordRun(paths: Paths, run: MigrationRun): Promise<void> {
  const runs = await readMigrationRuns(paths);
  runs.push(run);
  await ensureDir(paths.data, 0o700);
  await writeAtomic(paths.migrations, `${JSON.stringify({ version: run.version, runs }, null, 2)}\n`);
}
