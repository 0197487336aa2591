import { formatDuration } from '../core/time/clock.js';
import { toTerminalText } from '../core/text.js';
import { describeSpent } from '../store/disk/budget.js';
import type { BudgetFigures } from '../core/events.js';
import type { NotifyEvent, NotifyTask } from './notification.js';

/** Why a notification matters and what to do about it (the exact command, when there is one). */
export interface Meaning {
  why: string;
  action?: string;
}

/**
 * What an event means to the person told of it: one sentence of why it matters and the command that acts on it
 * (docs/notifications.md, "What a notification says"); any event type without its own words gets a plain one.
 */
export function describeEvent(event: NotifyEvent, task?: NotifyTask): Meaning {
  const id = task?.id ?? event.taskId ?? '';
  const p = event.payload;
  const name = id ? `Task ${id}` : 'A task';
  switch (event.type) {
    case 'task.deadletter':
      return {
        why:
          `${name} failed to run ${num(p.failureCount) ?? 'several'} times ` +
          `(last: ${str(p.lastFailureReason) ?? 'unknown'}) ` +
          'and was moved to deadletter: no agent will pick it up until it is resurrected.',
        action: `svc task resurrect ${id}`,
      };
    case 'sla.violation': {
      const over = num(p.duration) === undefined ? 'too long' : `for ${formatDuration(num(p.duration)!)}`;
      const limit = num(p.limit) === undefined ? '' : ` (limit ${formatDuration(num(p.limit)!)})`;
      return {
        why: `${name} has been in progress ${over}${limit} with ${str(p.agent) ?? 'its agent'}: it may be stuck.`,
        action: `svc task show ${id}`,
      };
    }
    case 'gate.awaiting':
      return {
        why: `${name} waits at the gate ${str(p.gate) ?? '?'} for an approval: nothing moves until someone decides.`,
        action: `svc task approve ${id}`,
      };
    case 'budget.exceeded':
      return budgetMeaning(id, p as unknown as BudgetFigures);
    case 'watchdog.critical':
      return {
        why:
          `The watchdog restarted the svc daemon ${num(p.restarts) ?? 'several'} times` +
          `${num(p.windowMs) === undefined ? '' : ` within ${formatDuration(num(p.windowMs)!)}`} and stopped: ` +
          'the daemon is down and no task is dispatched.',
        action: 'svc daemon start',
      };
    case 'task.completed':
      return { why: `${name} is done${str(p.summary) ? `: ${oneLine(str(p.summary)!)}` : '.'}` };
    case 'task.blocked':
      return {
        why: `${name} is blocked: ${oneLine(str(p.reason) ?? 'no reason given')}.`,
        action: `svc task show ${id}`,
      };
    default:
      return { why: `${event.type}${id ? ` on task ${id}` : ''}.`, ...(id ? { action: `svc task show ${id}` } : {}) };
  }
}

/** What a gathered burst means: how many of one event type, and the command that lists them. */
export function describeBurst(type: string, count: number, taskIds: readonly string[]): Meaning {
  const named = taskIds.length ? ` (${taskIds.join(', ')}${count > taskIds.length ? ', ...' : ''})` : '';
  const why = `${count} more ${type} events in a short time${named}.`;
  const list = LIST_OF[type];
  return list ? { why, action: list } : { why };
}

// --- internal ---

const LIST_OF: Record<string, string> = {
  'task.deadletter': 'svc task list --status deadletter',
  'gate.awaiting': 'svc task list --awaiting',
  'task.blocked': 'svc task list --status blocked',
  'budget.exceeded': 'svc task list --status blocked',
  'sla.violation': 'svc task list --status in-progress',
};

function budgetMeaning(id: string, figures: BudgetFigures): Meaning {
  const spent = figures.scope && figures.unit ? describeSpent(figures) : 'its budget is spent';
  const said = `${spent[0]!.toUpperCase()}${spent.slice(1)}`;
  const why = `${said}: the run was ended and the task waits, blocked, for an approval.`;
  if (figures.scope !== 'task' || typeof figures.limit !== 'number') {
    return { why, action: `svc task approve ${id} (after raising the budget in the org chart)` };
  }
  const more = figures.unit === 'tokens' ? Math.ceil(figures.limit * 2) : Math.ceil(figures.limit * 2 * 100) / 100;
  return { why, action: `svc task approve ${id} --budget-${figures.unit === 'tokens' ? 'tokens' : 'usd'} ${more}` };
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

/** Text of a task or its agent, on one line with its control characters escaped. */
function oneLine(text: string): string {
  return toTerminalText(text.length > 300 ? `${text.slice(0, 300)}...` : text);
}
