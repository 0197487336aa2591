import { toTerminalText } from '../core/text.js';
import type { StoredTask } from '../store/task-file.js';
import type { InvalidFile } from '../store/store.js';

/** One row of `svc task list --json`. */
export interface ListRow {
  id: string;
  title: string;
  status: string;
  priority: string;
  agent: string | null;
  createdAt: string;
  updatedAt: string;
  dependsOn: string[];
  path: string;
}

/** The row of a stored task. */
export function toListRow(stored: StoredTask): ListRow {
  const { task } = stored;
  return {
    id: task.id, title: task.title, status: stored.status, priority: task.priority,
    agent: task.lease?.agent ?? task.routing.agent ?? null, createdAt: task.createdAt, updatedAt: task.updatedAt,
    dependsOn: task.dependsOn, path: stored.path,
  };
}

/** Plain-text table of tasks: id, status, priority, agent, title. */
export function formatTaskTable(tasks: readonly ListRow[]): string[] {
  if (!tasks.length) return ['(no tasks)'];
  const rows = tasks.map((t) => [t.id, t.status, t.priority, toTerminalText(t.agent ?? '-'), toTerminalText(t.title)]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length), ['ID', 'STATUS', 'PRIORITY', 'AGENT'][i]!.length));
  const line = (r: string[]) => r.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join('  ');
  return [line(['ID', 'STATUS', 'PRIORITY', 'AGENT', 'TITLE']), ...rows.map(line)];
}

/** The fields of `svc task show`, one `key: value` a line, then the body; control and bidirectional characters escaped. */
export function formatTaskDetail(stored: StoredTask): string[] {
  return toDetailLines(stored).map((line, i, all) => toTerminalText(line, { multiline: i === all.length - 1 && stored.body.trim() !== '' }));
}

/** Warning lines for files that failed to parse. */
export function formatInvalid(invalid: readonly InvalidFile[]): string[] {
  return invalid.map((file) => `warning: skipped invalid task file ${toTerminalText(file.message.split('\n').join(' '))}`);
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

function toDetailLines(stored: StoredTask): string[] {
  const { task } = stored;
  const lines = [
    `id: ${task.id}`, `title: ${task.title}`, `status: ${stored.status}`, `priority: ${task.priority}`, `project: ${task.project}`,
    `routing: ${JSON.stringify(task.routing)}`, `dependsOn: ${task.dependsOn.length ? task.dependsOn.join(', ') : '(none)'}`,
    `createdAt: ${task.createdAt}`, `updatedAt: ${task.updatedAt}`, `lastTransitionAt: ${task.lastTransitionAt}`, `createdBy: ${task.createdBy}`,
  ];
  if (task.lease) lines.push(`lease: ${task.lease.agent} until ${task.lease.expiresAt} (session ${task.lease.sessionId})`);
  if (task.gate) lines.push(`gate: ${task.gate.workflow} / ${task.gate.current}`);
  if (task.parentId) lines.push(`parentId: ${task.parentId}`);
  if (Object.keys(task.metadata).length) lines.push(`metadata: ${JSON.stringify(task.metadata)}`);
  lines.push(`file: ${stored.path}`);
  if (stored.body.trim()) lines.push('', stored.body.trimEnd());
  return lines;
}
