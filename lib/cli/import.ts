import type { CAC } from 'cac';
import { toTerminalText } from '../core/text.js';
import { runImport, SOURCES, type ImportBatch, type ImportItem, type ImportReport } from '../import/import.js';
import type { Context } from './frame/context.js';
import { startProgress, type Progress } from './frame/progress.js';

interface ImportCliOptions {
  dryRun?: boolean;
  project?: string;
  statusMap?: string;
  keepStatus?: boolean;
  json?: boolean;
}

/** What each action is called in the report. */
const LABEL: Record<ImportItem['action'], [plan: string, done: string]> = {
  create: ['create', 'created'],
  update: ['update', 'updated'],
  unchanged: ['unchanged', 'unchanged'],
  kept: ['kept', 'kept'],
  missing: ['skip', 'skipped'],
  invalid: ['invalid', 'invalid'],
};

/** Registers `svc import <source> <path> [--dry-run] [--project p] [--status-map m] [--json]`. */
export function registerImport(cli: CAC, ctx: Context): void {
  cli
    .command(
      'import <source> <path>',
      `Import tasks from another tracker (${Object.keys(SOURCES).join(', ')}); running it again creates nothing new`,
    )
    .option('--dry-run', 'Print the plan; write nothing')
    .option('--project <project>', "Project of the new tasks (default: the source's, else default)")
    .option(
      '--status-map <map>',
      'backlog-md: source status to svc status, e.g. "To Do=backlog,In Progress=ready,Done=done"',
    )
    .option('--keep-status', 'aof: keep in-progress tasks in progress (their lease dropped) instead of ready')
    .option('--json', 'Print the report as a JSON object')
    .action(async (source: string, path: string, options: ImportCliOptions) => {
      const live = !options.dryRun && !options.json;
      let progress: Progress | undefined;
      const onBatch = (batch: ImportBatch) => {
        if (!progress) {
          progress = startProgress(ctx, {
            what: `Importing from ${String(source)}`,
            total: batch.total,
            json: options.json === true,
          });
          if (live) progress.print([`Imported from ${toTerminalText(String(source))}:`]);
        }
        if (live)
          progress.print(batch.items.map((item) => toItemLine(item, { width: batch.longestSourceId, dryRun: false })));
        progress.add(batch.items.length);
      };
      const report = await runImport(
        ctx.store(),
        { source: String(source), path: String(path) },
        {
          dryRun: options.dryRun === true,
          ...(options.project ? { project: String(options.project) } : {}),
          ...(options.statusMap !== undefined ? { statusMap: String(options.statusMap) } : {}),
          keepStatus: options.keepStatus === true,
          onBatch,
        },
      );
      progress?.end();
      if (report.summary.invalid || report.summary.problems || report.org?.problem) ctx.exitCode = 1;
      if (options.json) return ctx.json(report);
      printReport(ctx, report, { itemsPrinted: progress !== undefined });
    });
}

// --- internal ---

function printReport(ctx: Context, report: ImportReport, { itemsPrinted }: { itemsPrinted: boolean }): void {
  const t = (text: string) => toTerminalText(text);
  if (!itemsPrinted) {
    ctx.print(
      report.dryRun
        ? `Plan of the ${report.system} import (dry run: nothing written):`
        : `Imported from ${report.system}:`,
    );
    const width = report.items.reduce((most, item) => Math.max(most, item.sourceId.length), 0);
    for (const item of report.items) ctx.print(toItemLine(item, { width, dryRun: report.dryRun }));
  }
  for (const problem of report.problems) ctx.print(`  unreadable ${t(problem.file)}: ${t(problem.reason)}`);
  for (const skipped of report.skipped) ctx.print(`  skipped   ${t(skipped.file)}: ${t(skipped.reason)}`);
  printExtras(ctx, report);
  const s = report.summary;
  const done = report.dryRun ? ['to create', 'to update'] : ['created', 'updated'];
  ctx.print(
    `Summary: ${s.create} ${done[0]}, ${s.update} ${done[1]}, ${s.unchanged} unchanged, ${s.kept} ` +
      `kept (changed in svc), ${s.missing} skipped (removed from svc), ${s.invalid + s.problems} ` +
      `skipped (invalid or ` +
      `unreadable)${s.skipped ? `, ${s.skipped} skipped (deleted at the source)` : ''}` +
      `${s.cycles ? `, ${s.cycles} cycle link(s) dropped` : ''}.`,
  );
}

/**
 * One entry of the report: what was done, the source id, the svc id, why, its dangling dependencies and dropped cycle
 * links.
 */
function toItemLine(item: ImportItem, { width, dryRun }: { width: number; dryRun: boolean }): string {
  const t = (text: string) => toTerminalText(text);
  const label = LABEL[item.action][dryRun ? 0 : 1].padEnd(9);
  const id = item.id ?? (item.action === 'create' ? '(new id)' : '');
  const why = item.action === 'kept' ? ' (kept: changed in svc)' : item.reason ? `: ${t(item.reason)}` : '';
  const dangling = item.dangling.length
    ? ` (dangling dependency, kept: ${item.dangling.map(t).join(', ')} is not in svc)`
    : '';
  const cycles = (item.cycles ?? []).map((cycle) => `\n            ${t(cycle)}`).join('');
  return (
    `  ${label} ${t(item.sourceId).padEnd(width)} -> ` +
    `${t(id)}${why}${dangling}${item.action === 'invalid' ? ` [${t(item.file)}]` : ''}${cycles}`
  );
}

/** The org chart merge (a preview in a dry run) and the kept event log of an aof import. */
function printExtras(ctx: Context, report: ImportReport): void {
  const t = (text: string) => toTerminalText(text);
  const { org, events } = report;
  if (org) {
    const verb = org.problem
      ? 'not merged'
      : org.written
        ? 'merged into'
        : report.dryRun
          ? 'would merge into'
          : 'nothing to add to';
    ctx.print(`Org chart ${t(org.from)} ${verb} ${t(org.file)}${org.problem ? `: ${t(org.problem)}` : ''}`);
    for (const change of org.changes)
      ctx.print(
        `  ${change.action === 'add' ? 'add ' : 'keep'} ${change.kind} ` +
          `${t(change.id)}${change.action === 'keep' ? ' (svc has it)' : ''}`,
      );
    if (org.ignored.length) ctx.print(`  not merged (svc has no such setting): ${org.ignored.map(t).join(', ')}`);
  }
  if (events)
    ctx.print(
      `Events: ${events.added} line(s) ${report.dryRun ? 'to add to' : 'added to'} ${events.file} (${events.lines} ` +
        `kept in all); each task's are summarised in its task.imported event (svc events --task <id>).`,
    );
}
