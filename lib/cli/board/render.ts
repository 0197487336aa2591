import { compareText } from '../../core/compare.js';
import { TASK_ID_PATTERN } from '../../core/ids.js';
import { toPriorityRank } from '../../core/priority.js';
import type { Status } from '../../core/status.js';
import { toTerminalText } from '../../core/text.js';
import type { Paint } from '../output/color.js';
import type { ListRow } from '../../store/listing/task-row.js';

/** One board column: its status, title and every task in it, in board order. */
export interface BoardColumn {
  status: Status;
  title: string;
  tasks: BoardCard[];
}

/** A task on the board. */
export interface BoardCard {
  id: string;
  title: string;
  priority: string;
  agent: string | null;
  /** Who granted the lease of an in-progress task (`<host> pid <pid>`), when it says. */
  leasedBy: string | null;
  /** Dependencies of a ready task that are not done yet. */
  waitsOn: string[];
  /** A ready task backing off after a failed dispatch: when its next attempt is due. */
  nextAttemptAt?: string;
}

/** The statuses the board shows (cancelled tasks are never read for it). */
export const BOARD_STATUSES: readonly Status[] = ['backlog', 'ready', 'in-progress', 'done', 'blocked', 'deadletter'];

/**
 * The columns of a listing: the four of the specification, then Blocked and Deadletter when not
 * empty. A ready task whose next attempt is after `now` shows when it is due.
 */
export function toBoardColumns(rows: readonly ListRow[], now = new Date()): BoardColumn[] {
  const done = new Set(rows.filter((row) => row.status === 'done').map((row) => row.id));
  return COLUMNS.map((column) => ({
    ...column,
    tasks: sortColumn(
      column.status,
      rows.filter((row) => row.status === column.status),
    ).map((row) => toCard(row, done, now)),
  }))
    .filter((column) => column.always || column.tasks.length > 0)
    .map(({ status, title, tasks }) => ({ status, title, tasks }));
}

/**
 * The board as lines at most `width` wide: as many columns side by side as fit, the rest in a band
 * below. Ids are never cut: when every task shares a date they show as `-007`, the short id that
 * `svc task show -007` resolves, and a last line says so.
 */
export function renderBoard(columns: readonly BoardColumn[], options: { width: number; paint: Paint }): string[] {
  const shown = columns.map((column) => ({
    ...column,
    cards: column.status === 'done' ? column.tasks.slice(0, DONE_SHOWN) : column.tasks,
  }));
  const ids = toDisplayIds(shown.flatMap((column) => column.cards.map((card) => card.id)));
  const least = Math.max(
    MIN_COLUMN,
    ...shown.flatMap((column) => column.cards.map((card) => ids.show(card.id).length)),
  );
  const fits = (n: number) => Math.min(MAX_COLUMN, Math.floor((options.width - GAP.length * (n - 1)) / n));
  let across = Math.max(1, shown.length);
  while (across > 1 && fits(across) < least) across--;
  const width = Math.max(fits(across), least);
  const lines: string[] = [];
  for (let start = 0; start < shown.length; start += across) {
    if (start) lines.push('');
    const band = shown
      .slice(start, start + across)
      .map((column) => toCells(column, { width, show: ids.show, paint: options.paint }));
    const height = Math.max(...band.map((cells) => cells.length));
    for (let row = 0; row < height; row++)
      lines.push(
        band
          .map((cells) => fit(cells[row] ?? [], width))
          .join(GAP)
          .trimEnd(),
      );
  }
  if (ids.legend) lines.push('', options.paint.dim(ids.legend));
  return lines;
}

// --- internal ---

const COLUMNS: readonly { status: Status; title: string; always: boolean }[] = [
  { status: 'backlog', title: 'Backlog', always: true },
  { status: 'ready', title: 'Ready', always: true },
  { status: 'in-progress', title: 'In-Progress', always: true },
  { status: 'done', title: 'Done', always: true },
  { status: 'blocked', title: 'Blocked', always: false },
  { status: 'deadletter', title: 'Deadletter', always: false },
];

const GAP = ' | ';
const MIN_COLUMN = 16;
const MAX_COLUMN = 40;
const DONE_SHOWN = 10;

/** A piece of a line and how to colour it (colour is applied after the line is cut to width). */
type Segment = [text: string, style?: (text: string) => string];

function toCard(row: ListRow, done: Set<string>, now: Date): BoardCard {
  const waitsOn = row.status === 'ready' ? row.dependsOn.filter((id) => !done.has(id)) : [];
  const backingOff =
    row.status === 'ready' && row.nextAttemptAt !== undefined && Date.parse(row.nextAttemptAt) > now.getTime();
  const leasedBy = row.status === 'in-progress' ? (row.leasedBy ?? null) : null;
  return {
    id: row.id,
    title: row.title,
    priority: row.priority,
    agent: row.agent,
    leasedBy,
    waitsOn,
    ...(backingOff ? { nextAttemptAt: row.nextAttemptAt! } : {}),
  };
}

function sortColumn(status: Status, rows: ListRow[]): ListRow[] {
  return rows.sort((a, b) => {
    if (status === 'done') return compareText(b.updatedAt, a.updatedAt);
    return toPriorityRank(b.priority) - toPriorityRank(a.priority) || compareText(a.createdAt, b.createdAt);
  });
}

function toCells(
  column: BoardColumn & { cards: readonly BoardCard[] },
  options: { width: number; show: (id: string) => string; paint: Paint },
): Segment[][] {
  const { cards } = column;
  const { show, paint } = options;
  const colour = (text: string) => paint.bold(paint.status(column.status, text));
  const cells: Segment[][] = [
    [[`${column.title} (${column.tasks.length})`, colour]],
    [['-'.repeat(options.width), paint.dim]],
  ];
  for (const card of cards) {
    cells.push([
      [show(card.id)],
      ...(card.priority === 'normal'
        ? []
        : [[` [${card.priority}]`, (text: string) => paint.priority(card.priority, text)] as Segment]),
    ]);
    cells.push([[`  ${toTerminalText(card.title)}`]]);
    if (card.agent) cells.push([[`  @${toTerminalText(card.agent)}`, paint.dim]]);
    if (card.leasedBy) cells.push([[`  via ${toTerminalText(card.leasedBy)}`, paint.dim]]);
    if (card.waitsOn.length) cells.push([[`  waits on ${card.waitsOn.map(show).join(', ')}`, paint.dim]]);
    if (card.nextAttemptAt) cells.push([[`  retry at ${card.nextAttemptAt.slice(11, 19)} UTC`, paint.dim]]);
  }
  if (cards.length < column.tasks.length) cells.push([[`… ${column.tasks.length - cards.length} more`, paint.dim]]);
  return cells;
}

/** The segments cut to `width` (a `…` marks the cut) and padded to it, then coloured. */
function fit(segments: readonly Segment[], width: number): string {
  let room = width;
  let out = '';
  for (const [text, style] of segments) {
    if (room <= 0) break;
    const cut = text.length > room ? `${text.slice(0, room - 1)}…` : text;
    room -= cut.length;
    out += style ? style(cut) : cut;
  }
  return out + ' '.repeat(Math.max(0, room));
}

/**
 * How ids show on the board: `-007` when every id is `TASK-<one date>-<seq>`, else without `TASK-` when all have the
 * form.
 */
function toDisplayIds(ids: readonly string[]): { show: (id: string) => string; legend?: string } {
  const parsed = ids.map((id) => TASK_ID_PATTERN.exec(id));
  if (!ids.length || parsed.some((match) => !match)) return { show: (id) => id };
  const dates = new Set(parsed.map((match) => match![1]));
  if (dates.size > 1) return { show: (id) => (TASK_ID_PATTERN.test(id) ? id.slice('TASK-'.length) : id) };
  const [date] = dates;
  const short = (id: string) => {
    const match = TASK_ID_PATTERN.exec(id);
    return match && match[1] === date ? `-${match[2]}` : id;
  };
  const example = parsed[0]![0];
  return {
    show: short,
    legend: `ids without their date: ${short(example)} is ${example} (svc task show ${short(example)})`,
  };
}
