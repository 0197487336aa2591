import { toPriorityRank } from '../core/priority.js';
import type { Subscription } from '../org/schema.js';
import type { NotifyTask, OfferedEvent } from './notification.js';

/**
 * True when a subscription wants an event: its type is one of `events`, and the task passes every filter given
 * (`teams`, `agents` (the task's agent or the event's), `projects`, `priority` at least). An event without a task
 * (the watchdog's critical report) is not held back by the task filters.
 */
export function wants(sub: Subscription, event: OfferedEvent, task: NotifyTask | undefined): boolean {
  if (!sub.events.includes(event.type)) return false;
  if (!task) return true;
  const agent = task.agent ?? (typeof event.payload.agent === 'string' ? event.payload.agent : undefined);
  if (sub.teams && !(task.team && sub.teams.includes(task.team))) return false;
  if (sub.agents && !(agent && sub.agents.includes(agent))) return false;
  if (sub.projects && !sub.projects.includes(task.project)) return false;
  if (sub.priority && toPriorityRank(task.priority) < toPriorityRank(sub.priority)) return false;
  return true;
}

/** The rate-limited event types and how long one task's repeats stay quiet by default (as the console alerts). */
export const RATE_LIMITED: readonly string[] = ['sla.violation'];
export const DEFAULT_RATE_LIMIT_MS = 15 * 60_000;
