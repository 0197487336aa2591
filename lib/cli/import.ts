import type { CAC } from 'cac';
import { toTerminalText } from '../core/text.js';
import { runImport, SOURCES, type ImportItem, type ImportReport } from '../import/import.js';
import type { Context } from './context.js';

interface ImportCliOptions {
  dryRun?: boolean;
  project?: string;
  statusMap?: string;
  json?: boolean;
}

/** What each action is called in the report. */
const LABEL: Record<ImportItem['action'], [plan: string, done: string]> = {
  create: ['create', 'created'], update: ['update', 'updated'], unchanged: ['unchanged', 'unchanged'],
  kept: ['kept', 'kept'], missing: ['skip', 'skipped'], invalid: ['invalid', 'invalid'],
};

/** Registers `svc import <source> <path> [--dry-run] [--project p] [--status-map m] [--json]`. */
export function registerImport(cli: CAC, ctx: Context): void {
  cli
    .command('import <source> <path>', `Import tasks from another tracker (${Object.keys(SOURCES).join(', ')}); running it again creates nothing new`)
    .option('--dry-run', 'Print the plan; write nothing')
    .option('--project <project>', 'Project of the new tasks (default: the source\'s, else default)')
    .option('--status-map <map>', 'backlog-md: source status to svc status, e.g. "To Do=backlog,In Progress=ready,Done=done"')
    .option('--json', 'Print the report as a JSON object')
    .action(async (source: string, path: string, options: ImportCliOptions) => {
      const report = await runImport(ctx.store(), String(source), String(path), {
        dryRun: options.dryRun === true, ...(options.project ? { project: String(options.project) } : {}), ...(options.statusMap !== undefined ? { statusMap: String(options.statusMap) } : {}),
      });
      if (report.summary.invalid || report.summary.problems) ctx.exitCode = 1;
      if (options.json) return ctx.json(report);
      printReport(ctx, report);
    });
}

// --- internal ---

function printReport(ctx: Context, report: ImportReport): void {
  const t = (text: string) => toTerminalText(text);
  ctx.print(report.dryRun ? `Plan of the ${report.system} import (dry run: nothing written):` : `Imported from ${report.system}:`);
  const width = Math.max(0, ...report.items.map((item) => item.sourceId.length));
  for (const item of report.items) {
    const label = LABEL[item.action][report.dryRun ? 0 : 1].padEnd(9);
    const id = item.id ?? (item.action === 'create' ? '(new id)' : '');
    const why = item.action === 'kept' ? ' (kept: changed in svc)' : item.reason ? `: ${t(item.reason)}` : '';
    const dangling = item.dangling.length ? ` (dangling dependency, kept: ${item.dangling.map(t).join(', ')} is not in svc)` : '';
    ctx.print(`  ${label} ${t(item.sourceId).padEnd(width)} -> ${t(id)}${why}${dangling}${item.action === 'invalid' ? ` [${t(item.file)}]` : ''}`);
  }
  for (const problem of report.problems) ctx.print(`  unreadable ${t(problem.file)}: ${t(problem.reason)}`);
  const s = report.summary;
  const done = report.dryRun ? ['to create', 'to update'] : ['created', 'updated'];
  ctx.print(`Summary: ${s.create} ${done[0]}, ${s.update} ${done[1]}, ${s.unchanged} unchanged, ${s.kept} kept (changed in svc), ${s.missing} skipped (removed from svc), ${s.invalid + s.problems} skipped (invalid or unreadable).`);
}
