import type { CAC } from 'cac';
import { SvcError } from '../core/errors.js';
import { isStatus, STATUSES, type Status } from '../core/status.js';
import { toTerminalText } from '../core/text.js';
import { exportTasks } from '../import/export.js';
import type { Context } from './frame/context.js';

interface ExportOptions {
  format?: string;
  status?: string;
  withEvents?: boolean;
}

/** Registers `svc export [--format json|jsonl] [--status s] [--with-events]`: every task, to stdout. */
export function registerExport(cli: CAC, ctx: Context): void {
  cli
    .command(
      'export',
      'Print every task (frontmatter, body, path) as JSON, for a backup or `svc import svc <file>` into another root',
    )
    .option('--format <format>', 'json (one document) or jsonl (one task a line)', { default: 'json' })
    .option('--status <statuses>', 'Only these statuses (comma-separated)')
    .option('--with-events', "Add each task's events")
    .action(async (options: ExportOptions) => {
      const format = String(options.format);
      if (format !== 'json' && format !== 'jsonl')
        throw new SvcError(
          'validation_error',
          `Unknown export format ${JSON.stringify(format)}.`,
          'Use --format json or --format jsonl.',
        );
      const statuses = options.status === undefined ? STATUSES : toStatuses(String(options.status));
      const { document, invalid } = await exportTasks(ctx.store(), {
        statuses,
        withEvents: options.withEvents === true,
      });
      const text =
        format === 'json'
          ? JSON.stringify(document, null, 2)
          : document.tasks.map((task) => JSON.stringify(task)).join('\n');
      if (text) ctx.print(toSafeJson(text));
      if (!invalid.length) return;
      // A backup that lacks files must not look like a success: the export is printed, the exit code says it is
      // incomplete.
      for (const file of invalid)
        ctx.io.stderr(
          `svc: left out ${toTerminalText(file.path)}: ` +
            `${toTerminalText(file.message.replace(/:\s*\n\s*/g, ': ').replace(/\s*\n\s*/g, '; '))}\n`,
        );
      ctx.io.stderr(
        `svc: the export is incomplete: ${invalid.length} invalid ` +
          `task file${invalid.length === 1 ? '' : 's'} left out (listed ` +
          `above).\nhint: fix them (svc doctor lists them; svc ` +
          `migrate adds a missing schemaVersion), then export again.\n`,
      );
      ctx.exitCode = 1;
    });
}

// --- internal ---

function toStatuses(text: string): Status[] {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const wrong = names.filter((name) => !isStatus(name));
  if (wrong.length || !names.length)
    throw new SvcError(
      'validation_error',
      `--status: ` +
        (wrong.length ? `unknown status ${wrong.map((name) => JSON.stringify(name)).join(', ')}` : 'no status given') +
        `.`,
      `Use one or more of: ${STATUSES.join(', ')}.`,
    );
  return names as Status[];
}

/**
 * JSON with the characters a terminal acts on (DEL, C1, bidirectional controls, separators) written as escapes: the
 * same value, safe to print.
 */
function toSafeJson(text: string): string {
  return text.replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
