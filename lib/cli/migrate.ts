import type { CAC } from 'cac';
import { toTerminalText } from '../core/text.js';
import { applyMigrations, type MigrationRun } from '../migrate/apply.js';
import { planMigrations, type MigrationPlan } from '../migrate/plan.js';
import type { Context } from './frame/context.js';

interface MigrateOptions {
  dryRun?: boolean;
  json?: boolean;
}

/** Registers `svc migrate [--dry-run] [--json]`: brings task files to the current schema version. */
export function registerMigrate(cli: CAC, ctx: Context): void {
  cli
    .command(
      'migrate',
      'Bring task files written by hand or by an older svc to the ' +
        'current schemaVersion (each changed file backed up first)',
    )
    .option('--dry-run', 'Print what would change; write nothing')
    .option('--json', 'Print the plan or the run as a JSON object')
    .action(async (options: MigrateOptions) => {
      const store = ctx.store();
      await store.init();
      const plan = await planMigrations(store.paths);
      const run = options.dryRun
        ? null
        : await applyMigrations(store.paths, plan, { now: store.clock(), actor: 'migrate', events: store.events });
      if (plan.newer.length || plan.failed.length || run?.skipped.length) ctx.exitCode = 1;
      if (options.json) return ctx.json(toJson(plan, run));
      printPlan(ctx, plan, run);
    });
}

// --- internal ---

function toJson(plan: MigrationPlan, run: MigrationRun | null): unknown {
  const files = plan.files.map(({ file, id, from, to, changes }) => ({ file, id, from, to, changes }));
  return {
    version: plan.version,
    dryRun: run === null,
    files: run ? run.files : files,
    skipped: run?.skipped ?? [],
    backup: run?.backup ?? null,
    newer: plan.newer,
    failed: plan.failed,
  };
}

function printPlan(ctx: Context, plan: MigrationPlan, run: MigrationRun | null): void {
  const files = run ? run.files : plan.files;
  const verb = run ? 'Migrated' : 'Would migrate';
  if (!files.length && !plan.newer.length && !plan.failed.length)
    ctx.print(`Nothing to migrate: every task file is at schemaVersion ${plan.version}.`);
  for (const file of files) {
    ctx.print(
      `${verb} ${file.file} (${file.from === 0 ? 'no schemaVersion' : `schemaVersion ${file.from}`} -> ${file.to}):`,
    );
    for (const change of file.changes) ctx.print(`  ${toTerminalText(change)}`);
  }
  for (const skipped of run?.skipped ?? []) ctx.print(`Skipped ${skipped.file}: ${skipped.reason}.`);
  for (const newer of plan.newer)
    ctx.print(
      `Left untouched ${newer.file}: written by a newer svc (schemaVersion ` +
        `${newer.version}; this svc reads ${plan.version}). Upgrade svc to read it.`,
    );
  for (const failed of plan.failed)
    ctx.print(`Cannot migrate ${failed.file}: ${toTerminalText(failed.reason)}. Fix it by hand (svc doctor lists it).`);
  if (run?.backup)
    ctx.print(
      `Backups of the ${run.files.length} changed file${run.files.length === 1 ? '' : 's'} ` +
        `in ${run.backup}/; the run is recorded in data/migrations.json.`,
    );
  else if (!run && files.length)
    ctx.print(`Dry run: nothing written. Run svc migrate to apply (each file is backed up first).`);
}
