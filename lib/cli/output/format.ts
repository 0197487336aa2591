import { toOneLine, toTerminalText } from '../../core/text.js';
import { readTaskUsage } from '../../store/changes/usage.js';
import type { StoredTask } from '../../store/disk/task-file.js';
import type { InvalidFile } from '../../store/commit/store.js';
import type { ListRow } from '../../store/listing/task-row.js';
import { createPaint, type Paint } from './color.js';
import { formatUsage } from './usage-format.js';

/** Table of tasks: id, status, priority, agent, title; status and priority in colour when `paint` is on. */
export function formatTaskTable(tasks: readonly ListRow[], paint: Paint = PLAIN): string[] {
  if (!tasks.length) return ['(no tasks)'];
  const rows = tasks.map((t) => [
    t.id,
    t.status,
    t.priority,
    toCell(toTerminalText(t.agent ?? '-'), AGENT_WIDTH),
    toTerminalText(t.title) + toWhen(t),
  ]);
  const widths = [0, 1, 2, 3].map((i) =>
    Math.max(...rows.map((r) => r[i]!.length), ['ID', 'STATUS', 'PRIORITY', 'AGENT'][i]!.length),
  );
  const pad = (r: string[]) => r.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell));
  const line = (r: string[]) =>
    pad(r)
      .map((cell, i) => (i === 1 ? paint.status(r[1]!, cell) : i === 2 ? paint.priority(r[2]!, cell) : cell))
      .join('  ');
  return [pad(['ID', 'STATUS', 'PRIORITY', 'AGENT', 'TITLE']).join('  '), ...rows.map(line)];
}

/**
 * The widest the AGENT column of a task table grows; a longer agent id is cut with an ellipsis (`--json` has it whole).
 */
export const AGENT_WIDTH = 24;

/**
 * The fields of `svc task show`, one `key: value` a line, then the body; control and bidirectional characters escaped,
 * then status and priority coloured.
 */
export function formatTaskDetail(stored: StoredTask, paint: Paint = PLAIN): string[] {
  const lines = toDetailLines(stored).map((line, i, all) =>
    toTerminalText(line, { multiline: i === all.length - 1 && stored.body.trim() !== '' }),
  );
  lines[2] = `status: ${paint.status(stored.status)}`;
  lines[3] = `priority: ${paint.priority(toTerminalText(stored.task.priority))}`;
  return lines;
}

/** A move as one line: `<id> <from> -> <to>`, or `<id> already <status>`. */
export function formatMove(
  move: { taskId: string; from: string; to: string; transitioned: boolean },
  paint: Paint = PLAIN,
): string {
  return move.transitioned
    ? `${move.taskId} ${paint.status(move.from)} -> ${paint.status(move.to)}`
    : `${move.taskId} already ${paint.status(move.to)}`;
}

/** Warning lines for files that failed to parse. */
export function formatInvalid(invalid: readonly InvalidFile[]): string[] {
  return invalid.map((file) => `warning: skipped invalid task file ${toTerminalText(toOneLine(file.message))}`);
}

/** The text of a string option; undefined when absent or given as a bare flag. */
export function toText(value: unknown): string | undefined {
  return value === undefined || value === null || value === true || value === false ? undefined : String(value);
}

/** Splits a comma-separated option (`--tags a,b`) into trimmed, non-empty values. */
export function toList(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(','));
  const out = parts.map((p) => p.trim()).filter(Boolean);
  return out.length ? out : undefined;
}

// --- internal ---

function toCell(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

const PLAIN = createPaint({ enabled: false });

function toDetailLines(stored: StoredTask): string[] {
  const { task } = stored;
  const lines = [
    `id: ${task.id}`,
    `title: ${task.title}`,
    `status: ${stored.status}`,
    `priority: ${task.priority}`,
    `project: ${task.project}`,
    `routing: ${JSON.stringify(task.routing)}`,
    `dependsOn: ${task.dependsOn.length ? task.dependsOn.join(', ') : '(none)'}`,
    `createdAt: ${task.createdAt}`,
    `updatedAt: ${task.updatedAt}`,
    `lastTransitionAt: ${task.lastTransitionAt}`,
    `createdBy: ${task.createdBy}`,
  ];
  if (task.lease)
    lines.push(`lease: ${task.lease.agent} until ${task.lease.expiresAt} (session ${task.lease.sessionId})`);
  if (task.gate) lines.push(`gate: ${task.gate.workflow} / ${task.gate.current}`);
  if (task.workspace)
    lines.push(
      `workspace: ${task.workspace.name} at ${task.workspace.path} (branch ` +
        `${task.workspace.branch}, from ${task.workspace.base}, host ${task.workspace.host})`,
    );
  if (task.parentId) lines.push(`parentId: ${task.parentId}`);
  if (task.notBefore) lines.push(`notBefore: ${task.notBefore}`);
  if (task.dueAt) lines.push(`dueAt: ${task.dueAt}${isOverdue(stored.status, task.dueAt) ? ' (OVERDUE)' : ''}`);
  const usage = readTaskUsage(task.metadata);
  if (usage) lines.push(`usage: ${formatUsage(usage)}`);
  if (Object.keys(task.metadata).length) lines.push(`metadata: ${JSON.stringify(task.metadata)}`);
  lines.push(`file: ${stored.path}`);
  if (stored.body.trim()) lines.push('', stored.body.trimEnd());
  return lines;
}

/** ` [not before T]` and ` [due T]` (` [OVERDUE since T]` once passed) after a title in the table. */
function toWhen(row: ListRow): string {
  const notBefore = row.notBefore && Date.parse(row.notBefore) > Date.now() ? ` [not before ${row.notBefore}]` : '';
  if (!row.dueAt) return notBefore;
  return `${notBefore} [${isOverdue(row.status, row.dueAt) ? 'OVERDUE since' : 'due'} ${row.dueAt}]`;
}

/** A task not done or cancelled whose `dueAt` has passed. */
function isOverdue(status: string, dueAt: string): boolean {
  return status !== 'done' && status !== 'cancelled' && Date.parse(dueAt) <= Date.now();
}
