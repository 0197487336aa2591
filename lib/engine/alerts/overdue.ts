import type { Status } from '../../core/status.js';
import { toTerminalText } from '../../core/text.js';

/** What the overdue check needs of a task. */
export interface DueTask {
  id: string;
  title: string;
  status: Status;
  dueAt: string;
  agent: string | undefined;
}

/** Statuses whose tasks are still expected to be done: a passed `dueAt` there is overdue. */
export const OPEN_STATUSES = ['backlog', 'ready', 'in-progress', 'blocked', 'deadletter'] as const;

/** True when `task` is open and its `dueAt` is at or before `now`. */
export function isOverdue(task: Pick<DueTask, 'status' | 'dueAt'>, now: Date): boolean {
  return (OPEN_STATUSES as readonly string[]).includes(task.status) && Date.parse(task.dueAt) <= now.getTime();
}

/** The console alert of an overdue task (`[AOF] OVERDUE:` lines), control characters escaped. */
export function formatOverdueAlert(task: DueTask, now: Date): string {
  const late = formatLate(now.getTime() - Date.parse(task.dueAt));
  return [
    `[AOF] OVERDUE: ${task.id} "${task.title}"`,
    `[AOF] OVERDUE:   was due at ${task.dueAt} (${late} ago), ` +
      `status ${task.status}, agent: ${task.agent ?? 'unassigned'}`,
    `[AOF] OVERDUE:   action: \`svc task show ${task.id}\`; raise ` +
      `its priority (\`svc task edit ${task.id} --priority high\`) or ` +
      `set a later due time (\`svc task edit ${task.id} --due 2d\`); ` +
      `this alert is raised once per due time and never moves the task`,
  ]
    .map((line) => toTerminalText(line))
    .join('\n');
}

// --- internal ---

/** A delay in the unit that fits: `45 s`, `12 min`, `3.5 h`, `2.0 d`. */
function formatLate(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86_400).toFixed(1)} d`;
}
