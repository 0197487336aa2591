import type { CAC } from 'cac';
import { compareText } from '../core/compare.js';
import type { Status } from '../core/status.js';
import { toPriorityRank } from '../core/priority.js';
import { toTerminalText } from '../core/text.js';
import type { StoredTask } from '../store/task-file.js';
import type { Context } from './context.js';
import { formatInvalid } from './format.js';

/** Board columns: the four of the specification, then Blocked and Deadletter when not empty. */
const COLUMNS: readonly { status: Status; title: string; always: boolean }[] = [
  { status: 'backlog', title: 'Backlog', always: true },
  { status: 'ready', title: 'Ready', always: true },
  { status: 'in-progress', title: 'In-Progress', always: true },
  { status: 'done', title: 'Done', always: true },
  { status: 'blocked', title: 'Blocked', always: false },
  { status: 'deadletter', title: 'Deadletter', always: false },
];

const WIDTH = 30;
const DONE_SHOWN = 10;

/** Registers `svc board`, the kanban view. */
export function registerBoard(cli: CAC, ctx: Context): void {
  cli.command('board', 'Kanban view: Backlog, Ready, In-Progress, Done (and Blocked, Deadletter when not empty)')
    .option('--json', 'Print the columns as JSON')
    .action(async (opts: Record<string, unknown>) => {
      const { tasks, invalid } = await ctx.store().list(COLUMNS.map((c) => c.status));
      const { columns, done } = toColumns(tasks);
      if (opts.json) {
        return ctx.json({
          columns: columns.map((c) => ({ status: c.status, title: c.title, count: c.tasks.length, tasks: c.tasks.map((t) => toCard(t, done)) })),
          invalid: invalid.map((file) => ({ path: file.path, message: file.message })),
        });
      }
      renderBoard(columns, done).forEach((line) => ctx.print(line));
      formatInvalid(invalid).forEach((line) => ctx.print(line));
    });
}

/** The board of a listing as text lines (the columns side by side). */
export function toBoardLines(tasks: readonly StoredTask[]): string[] {
  const { columns, done } = toColumns(tasks);
  return renderBoard(columns, done);
}

// --- internal ---

function toColumns(tasks: readonly StoredTask[]) {
  const done = new Set(tasks.filter((t) => t.status === 'done').map((t) => t.task.id));
  const columns = COLUMNS.map((column) => ({ ...column, tasks: sortColumn(tasks.filter((t) => t.status === column.status)) }))
    .filter((column) => column.always || column.tasks.length > 0);
  return { columns, done };
}

function toCard(stored: StoredTask, done: Set<string>) {
  const { task } = stored;
  const waitsOn = stored.status === 'ready' ? task.dependsOn.filter((id) => !done.has(id)) : [];
  return { id: task.id, title: task.title, priority: task.priority, agent: task.lease?.agent ?? task.routing.agent ?? null, waitsOn };
}

function sortColumn(tasks: StoredTask[]): StoredTask[] {
  return tasks.sort((a, b) => {
    if (a.status === 'done') return compareText(b.task.updatedAt, a.task.updatedAt);
    return toPriorityRank(b.task.priority) - toPriorityRank(a.task.priority) || compareText(a.task.createdAt, b.task.createdAt);
  });
}

function renderBoard(columns: { status: Status; title: string; tasks: StoredTask[] }[], done: Set<string>): string[] {
  const cells = columns.map((column) => {
    const shown = column.status === 'done' ? column.tasks.slice(0, DONE_SHOWN) : column.tasks;
    const lines = shown.flatMap((t) => toCardLines(toCard(t, done)));
    if (shown.length < column.tasks.length) lines.push(`… ${column.tasks.length - shown.length} more`);
    return [`${column.title} (${column.tasks.length})`, '-'.repeat(WIDTH), ...lines];
  });
  const height = Math.max(...cells.map((c) => c.length));
  const out: string[] = [];
  for (let row = 0; row < height; row++) out.push(cells.map((c) => fit(c[row] ?? '')).join(' | ').trimEnd());
  return out;
}

function toCardLines(card: ReturnType<typeof toCard>): string[] {
  const mark = card.priority === 'normal' ? '' : ` [${card.priority}]`;
  const lines = [`${card.id}${mark}`, `  ${toTerminalText(card.title)}`];
  if (card.agent) lines.push(`  @${toTerminalText(card.agent)}`);
  if (card.waitsOn.length) lines.push(`  waits on ${card.waitsOn.join(', ')}`);
  return lines;
}

function fit(text: string): string {
  return text.length > WIDTH ? `${text.slice(0, WIDTH - 1)}…` : text.padEnd(WIDTH);
}
