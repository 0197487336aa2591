import type { CAC } from 'cac';
import { assertStatus, STATUSES } from '../core/status.js';
import type { Context } from './context.js';
import { formatInvalid, formatTaskTable, toText } from './format.js';
import { listRows } from './rows.js';
import { asUsage } from './usage.js';

/**
 * Registers `svc task list`. Light on purpose: with a daemon up, the listing comes from its index
 * and the store module (zod, YAML) is never loaded; without one, the files are read.
 */
export function registerTaskList(cli: CAC, ctx: Context): void {
  cli.command('list', `List tasks, oldest first (from the daemon's index when one runs, else from the files)\n--status takes one of: ${STATUSES.join(', ')}`)
    .option('--status <status>', 'Only this status').option('--agent <id>', 'Only tasks routed or leased to this agent')
    .option('--json', 'Print a JSON array')
    .action(async (opts: Record<string, unknown>) => {
      const status = opts.status === undefined ? undefined : asUsage(() => assertStatus(opts.status));
      const { rows, invalid } = await listRows(ctx, status);
      const agent = toText(opts.agent);
      const shown = agent ? rows.filter((row) => row.agent === agent) : rows;
      formatInvalid(invalid).forEach((line) => ctx.io.stderr(`${line}\n`));
      if (opts.json) return ctx.io.stdout(`${JSON.stringify(shown)}\n`);
      formatTaskTable(shown, ctx.paint).forEach((line) => ctx.print(line));
    });
}
