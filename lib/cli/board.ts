import type { CAC } from 'cac';
import type { Context } from './context.js';
import { renderBoard, toBoardColumns } from './board-render.js';
import type { ListRow } from '../store/task-row.js';
import { formatInvalid } from './format.js';
import { listRows } from './rows.js';

/** Registers `svc board`, the kanban view. */
export function registerBoard(cli: CAC, ctx: Context): void {
  cli.command('board', 'Kanban view: Backlog, Ready, In-Progress, Done (and Blocked, Deadletter when not empty)\nFrom the daemon\'s index when one runs, else from the files. The board fits the terminal (COLUMNS, else 80): columns that do not fit go to a band below, and ids are never cut (-007 when all tasks share a date). Colour on a terminal unless NO_COLOR is set.')
    .option('--json', 'Print the columns as JSON')
    .action(async (opts: Record<string, unknown>) => {
      const { rows, invalid } = await listRows(ctx);
      const columns = toBoardColumns(rows);
      if (opts.json) {
        return ctx.json({
          columns: columns.map((c) => ({ status: c.status, title: c.title, count: c.tasks.length, tasks: c.tasks })),
          invalid: invalid.map((file) => ({ path: file.path, message: file.message })),
        });
      }
      toBoardLines(ctx, rows).forEach((line) => ctx.print(line));
      formatInvalid(invalid).forEach((line) => ctx.print(line));
    });
}

/** The board of some task rows as text lines, as wide as the context allows. */
export function toBoardLines(ctx: Pick<Context, 'columns' | 'paint'>, rows: readonly ListRow[]): string[] {
  return renderBoard(toBoardColumns(rows), { width: ctx.columns, paint: ctx.paint });
}
