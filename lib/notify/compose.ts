import { toTerminalText } from '../core/text.js';
import { describeBurst, describeEvent } from './describe.js';
import { type Notification, type NotifyEvent, type NotifyTask, uuidFrom } from './notification.js';

/** How many task ids a coalesced notification names (it counts them all). */
export const COALESCED_NAMED = 10;

/** One event and its task as the notifier received them. */
export interface Offered {
  event: NotifyEvent;
  task?: NotifyTask;
}

/** What a notification is composed of besides its event: the subscription and the board's page of a task. */
export interface ComposeOptions {
  subscription: string;
  boardUrl?: ((taskId: string) => string | undefined) | undefined;
  deliveryId?: string;
}

/** The task as a notification shows it: its title and other text on one line, control characters escaped. */
export function toSafeTask(task: NotifyTask): NotifyTask {
  const safe = (text: string) => toTerminalText(text);
  return {
    id: task.id,
    title: safe(task.title),
    status: safe(task.status),
    priority: safe(task.priority),
    ...(task.agent === undefined ? {} : { agent: safe(task.agent) }),
    ...(task.team === undefined ? {} : { team: safe(task.team) }),
    project: safe(task.project),
  };
}

/**
 * The notification of one event for one subscription. Its delivery id, unless given, comes from the subscription and
 * the event's id: the same event offered again (a crash before its reader moved on) is the same delivery.
 */
export function composeOne(offered: Offered, options: ComposeOptions): Notification {
  const { event } = offered;
  const task = offered.task ? toSafeTask(offered.task) : undefined;
  const meaning = describeEvent(event, task);
  const taskId = task?.id ?? event.taskId;
  const boardUrl = taskId ? options.boardUrl?.(taskId) : undefined;
  return {
    deliveryId: options.deliveryId ?? uuidFrom(`${options.subscription}\n${event.id}`),
    subscription: options.subscription,
    event,
    ...(task ? { task } : {}),
    why: toTerminalText(meaning.why),
    ...(meaning.action ? { action: toTerminalText(meaning.action) } : {}),
    ...(boardUrl ? { boardUrl } : {}),
  };
}

/**
 * The one notification of the events a coalescing window gathered (in the order they came): the first event and its
 * task, how many there were, the first few task ids and every event id. Its delivery id is derived from the events,
 * so merging the same window twice (a crash in between) makes the same delivery. One event alone is sent as itself.
 */
export function composeGathered(gathered: readonly Offered[], options: ComposeOptions): Notification {
  const eventIds = gathered.map((o) => o.event.id);
  const deliveryId = uuidFrom(`${options.subscription}\n${eventIds.join('\n')}`);
  const first = gathered[0]!;
  if (gathered.length === 1) return composeOne(first, { ...options, deliveryId });
  const taskIds = [
    ...new Set(gathered.flatMap((o) => ((o.task?.id ?? o.event.taskId) ? [o.task?.id ?? o.event.taskId!] : []))),
  ];
  const meaning = describeBurst(first.event.type, gathered.length, taskIds.slice(0, COALESCED_NAMED));
  const one = composeOne(first, { ...options, deliveryId });
  return {
    ...one,
    why: toTerminalText(meaning.why),
    ...(meaning.action ? { action: meaning.action } : {}),
    coalesced: { count: gathered.length, taskIds: taskIds.slice(0, COALESCED_NAMED), eventIds },
  };
}
