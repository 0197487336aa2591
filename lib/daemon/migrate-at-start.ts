import { applyMigrations } from '../migrate/apply.js';
import { planMigrations } from '../migrate/plan.js';
import type { Store } from '../store/commit/store.js';
import type { DaemonLog } from './instance/log.js';
import { describeError } from '../core/errors.js';

/**
 * Runs the pending schema migrations before the daemon indexes the tree
 * (docs/moving-in-and-out.md), logging each file changed and each left alone. A failure is logged, never fatal: the
 * files it could not fix are reported as invalid, as before.
 */
export async function migrateAtStart(store: Store, log: DaemonLog): Promise<void> {
  try {
    const plan = await planMigrations(store.paths);
    for (const { file, version } of plan.newer)
      log.warn('migrate.newer', {
        file,
        version,
        message: `written by a newer svc (schemaVersion ${version}); upgrade svc; left untouched`,
      });
    for (const { file, reason } of plan.failed) log.warn('migrate.failed', { file, message: reason });
    if (!plan.files.length) return;
    const run = await applyMigrations(store.paths, plan, { now: store.clock(), actor: 'daemon', events: store.events });
    for (const { file, from, to, changes } of run.files) log.info('migrate.applied', { file, from, to, changes });
    for (const { file, reason } of run.skipped) log.warn('migrate.skipped', { file, message: reason });
    if (run.backup) log.info('migrate.done', { files: run.files.length, backup: run.backup });
  } catch (err) {
    log.error('migrate.error', { message: describeError(err) });
  }
}
