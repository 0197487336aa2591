import type { CAC } from 'cac';
import { checkTaskLinks } from '../store/changes/dangling.js';
import { planReconcile } from '../store/changes/reconcile.js';
import { applyReconcile } from '../store/changes/reconcile-apply.js';
import { toTerminalText } from '../core/text.js';
import { listRecords } from '../workspace/records.js';
import { checkAgentClis, checkConfig, checkSpool } from './doctor-checks.js';
import { printConfig, printCycles, printPlan, printResult, printSpool } from './doctor-report.js';
import type { Context } from './frame/context.js';
import { formatRuntimeChecks } from './output/runtime-format.js';

interface DoctorOptions {
  fix?: boolean;
  json?: boolean;
}

/**
 * Registers `svc doctor [--fix] [--json]`: checks the org chart and workflows, prints the reconcile plan, or applies
 * it.
 */
export function registerDoctor(cli: CAC, ctx: Context): void {
  cli
    .command(
      'doctor',
      'Check the org chart, the workflows and the tasks tree: heals, duplicates, temporaries, invalid and stray files',
    )
    .option('--fix', 'Apply the fixes (invalid and stray files, and configuration problems, are only reported)')
    .option('--json', 'Print the plan or the result as a JSON object')
    .action(async (options: DoctorOptions) => {
      const store = ctx.store();
      const config = await checkConfig(ctx.root);
      const runtimes = await checkAgentClis(ctx.root, ctx.io.env);
      const cliProblems = runtimes.filter((check) => check.problem).length;
      const plan = await planReconcile(store.paths, store.clock());
      const spool = await checkSpool(ctx.root, { fix: options.fix === true });
      const json = options.json === true;
      const { dangling, cycles } = await checkTaskLinks(store.paths);
      const keptWorktrees = (await listRecords(store.paths.workspaces)).filter((record) => record.kept);
      if (!json) {
        for (const { taskId, path, branch, kept } of keptWorktrees)
          ctx.print(
            `kept worktree: ${taskId} at ${toTerminalText(path)} (branch ${toTerminalText(branch)}): ` +
              `${toTerminalText(kept!.reason)}; svc task workspace ${taskId} --remove [--force] removes it`,
          );
        printConfig(ctx, config);
        formatRuntimeChecks(runtimes).forEach((line) => ctx.print(line));
        printSpool(ctx, spool);
        for (const { id, missing } of dangling)
          ctx.print(
            `dangling dependency: ${id} depends on ${missing.join(', ')}, which ` +
              `${missing.length === 1 ? 'is not a task' : 'are not tasks'} (the task waits until they exist)`,
          );
        printCycles(ctx, cycles);
      }
      const other = {
        json,
        config,
        runtimes,
        spool: json ? spool : undefined,
        elsewhere: config.length > 0 || cliProblems > 0 || spool.problem || cycles.length > 0,
        dangling,
        cycles,
        keptWorktrees,
      };
      if (!options.fix) printPlan(ctx, plan, other);
      else printResult(ctx, await applyReconcile(store.paths, plan, { actor: 'doctor', events: store.events }), other);
      if (config.length || cliProblems || spool.problem || cycles.length) ctx.exitCode = 1;
    });
}
