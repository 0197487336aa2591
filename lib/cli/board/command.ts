import type { CAC } from 'cac';
import type { ListRow } from '../../store/listing/task-row.js';
import { BOARD_STATUSES, renderBoard, toBoardColumns, type BoardColumn } from './render.js';
import type { Context } from '../frame/context.js';
import { formatInvalid } from '../output/format.js';
import { listRows, type Listing } from '../frame/rows.js';

/** Registers `svc board`, the kanban view. */
export function registerBoard(cli: CAC, ctx: Context): void {
  cli
    .command(
      'board',
      'Kanban view: Backlog, Ready, In-Progress, Done (and Blocked, ' +
        "Deadletter when not empty)\nFrom the daemon's index when " +
        'one runs, else from the files. The board fits the terminal ' +
        '(COLUMNS, else 80): columns that do not fit go to a band ' +
        'below, and ids are never cut (-007 when all tasks share a ' +
        'date). Colour on a terminal unless NO_COLOR is set. --watch ' +
        'redraws it in place as tasks move (piped: each new frame ' +
        'after a blank line; with --json, one JSON object a line).',
    )
    .option('--json', 'Print the columns as JSON')
    .option(
      '-w, --watch',
      'Redraw the board as tasks move, until Ctrl-C (with a daemon: ' +
        'as its index changes; without: the files read every second)',
    )
    .action(async (opts: Record<string, unknown>) => {
      if (opts.watch)
        return (await import('./watch.js')).watchBoard(ctx, { json: opts.json === true, toJson: toBoardJson });
      const listing = await listRows(ctx, BOARD_STATUSES);
      const { rows, invalid } = listing;
      const columns = toBoardColumns(rows);
      if (opts.json) return ctx.json(toBoardJson(columns, listing));
      toBoardLines(ctx, rows).forEach((line) => ctx.print(line));
      formatInvalid(invalid).forEach((line) => ctx.print(line));
    });
}

/** The board of some task rows as text lines, as wide as the context allows. */
export function toBoardLines(ctx: Pick<Context, 'columns' | 'paint'>, rows: readonly ListRow[]): string[] {
  return renderBoard(toBoardColumns(rows), { width: ctx.columns, paint: ctx.paint });
}

// --- internal ---

/** `svc board --json`: the columns with their counts and cards, and the files that did not parse. */
function toBoardJson(columns: BoardColumn[], listing: Listing) {
  return {
    columns: columns.map((c) => ({ status: c.status, title: c.title, count: c.tasks.length, tasks: c.tasks })),
    invalid: listing.invalid.map((file) => ({ path: file.path, message: file.message })),
  };
}
