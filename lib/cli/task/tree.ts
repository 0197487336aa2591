import type { CAC } from 'cac';
import { toTerminalText } from '../../core/text.js';
import type { StoredTask } from '../../store/disk/task-file.js';
import type { ListRow } from '../../store/listing/task-row.js';
import type { Context } from '../frame/context.js';
import { formatInvalid } from '../output/format.js';
import { operate } from '../frame/operate.js';
import { listRows } from '../frame/rows.js';

/** A task and its subtasks (`parentId`), recursively: `svc task tree --json`. */
export interface TaskNode {
  id: string;
  title: string;
  status: string;
  children: TaskNode[];
}

/** Registers `svc task tree <id>`: the task's subtasks, recursively, with their status. */
export function registerTaskTree(cli: CAC, ctx: Context): void {
  cli
    .command('tree <id>', "Show a task's subtasks (tasks whose parentId is it), recursively, with their status")
    .option('--json', 'Print the tree as JSON')
    .example('svc task tree 007')
    .action(async (id: string, opts: Record<string, unknown>) => {
      const stored = await operate<StoredTask>(ctx, 'operator_task_show', { taskId: String(id) });
      const { rows, invalid } = await listRows(ctx);
      formatInvalid(invalid).forEach((line) => ctx.io.stderr(`${line}\n`));
      const root = toTree({ id: stored.task.id, title: stored.task.title, status: stored.status }, rows);
      if (opts.json) return ctx.json(root);
      formatTree(root, ctx).forEach((line) => ctx.print(line));
    });
}

/** The direct subtasks of a task, oldest first, from a listing (for `svc task show`). */
export async function listChildren(ctx: Context, id: string): Promise<ListRow[]> {
  return (await listRows(ctx)).rows.filter((row) => row.parentId === id);
}

/** `children:` lines of `svc task show`, one `  <id>  <status>  <title>` a child. */
export function formatChildren(children: readonly ListRow[], ctx: Context): string[] {
  if (!children.length) return [];
  return [
    'children:',
    ...children.map((row) => `  ${row.id}  ${ctx.paint.status(row.status)}  ${toTerminalText(row.title)}`),
  ];
}

// --- internal ---

/** Builds the tree below `top`; a task met twice (a parentId cycle written by hand) is not followed again. */
function toTree(top: Omit<TaskNode, 'children'>, rows: readonly ListRow[]): TaskNode {
  const byParent = new Map<string, ListRow[]>();
  for (const row of rows) if (row.parentId) byParent.set(row.parentId, [...(byParent.get(row.parentId) ?? []), row]);
  const seen = new Set<string>([top.id]);
  const grow = (node: Omit<TaskNode, 'children'>): TaskNode => {
    const kids = (byParent.get(node.id) ?? []).filter((row) => !seen.has(row.id));
    kids.forEach((row) => seen.add(row.id));
    return { ...node, children: kids.map((row) => grow({ id: row.id, title: row.title, status: row.status })) };
  };
  return grow(top);
}

function formatTree(root: TaskNode, ctx: Context): string[] {
  const line = (node: TaskNode) => `${node.id}  ${ctx.paint.status(node.status)}  ${toTerminalText(node.title)}`;
  const out = [line(root)];
  const walk = (nodes: readonly TaskNode[], indent: string) =>
    nodes.forEach((node, i) => {
      const last = i === nodes.length - 1;
      out.push(`${indent}${last ? '└─ ' : '├─ '}${line(node)}`);
      walk(node.children, `${indent}${last ? '   ' : '│  '}`);
    });
  walk(root.children, '');
  if (!root.children.length) out.push('(no subtasks)');
  return out;
}
