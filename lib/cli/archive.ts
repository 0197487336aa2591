import type { CAC } from 'cac';
import { toCutoff } from '../core/time/duration.js';
import { toTerminalText } from '../core/text.js';
import type { ArchiveReport } from '../store/changes/archive.js';
import type { Context } from './frame/context.js';
import { toText } from './output/format.js';
import { operate } from './frame/operate.js';

/** How old a done or cancelled task must be, by default, to be archived. */
const DEFAULT_OLDER_THAN = '30d';

/**
 * Registers `svc archive`: one call (`operator_archive`), by the daemon when one runs (its index
 * then drops the archived tasks at once), else in this process on the files.
 */
export function registerArchive(cli: CAC, ctx: Context): void {
  cli
    .command(
      'archive',
      'Move done and cancelled tasks whose last transition is older than --older-than to tasks/archive/<yyyy-mm>/',
    )
    .option('--older-than <when>', `A duration back from now (30d, 12h, 2w) or a date (default ${DEFAULT_OLDER_THAN})`)
    .option('--dry-run', 'Print what would be archived; move nothing')
    .option('--json', 'Print the report as JSON')
    .example('svc archive --older-than 60d --dry-run')
    .action(async (opts: Record<string, unknown>) => {
      const before = toCutoff(toText(opts.olderThan) ?? DEFAULT_OLDER_THAN, new Date(), '--older-than');
      const report = await operate<ArchiveReport>(ctx, 'operator_archive', {
        before: before.toISOString(),
        dryRun: !!opts.dryRun,
      });
      if (report.refused.length) ctx.exitCode = 1;
      if (opts.json) return ctx.json(report);
      formatReport(report, { dryRun: !!opts.dryRun }).forEach((line) => ctx.print(line));
      report.refused.forEach((skip) => ctx.io.stderr(`svc: refused ${skip.id}: ${toTerminalText(skip.reason)}\n`));
    });
}

// --- internal ---

function formatReport(report: ArchiveReport, { dryRun }: { dryRun: boolean }): string[] {
  const verb = dryRun ? 'would archive' : 'archived';
  const lines = [
    ...report.moved.map((move) => `${verb} ${move.id} (${move.status} since ${move.lastTransitionAt}) -> ${move.to}`),
    ...report.kept.map((skip) => `kept ${skip.id}: ${toTerminalText(skip.reason)}`),
  ];
  const counts =
    `${report.moved.length} ${verb}, ${report.kept.length} kept, ` +
    `${report.refused.length} refused (last transition before ${report.before})`;
  return [...lines, counts];
}
