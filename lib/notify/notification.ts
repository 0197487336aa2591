import { createHash } from 'node:crypto';
import type { Priority } from '../core/priority.js';

/** What a notification says about its task (docs/notifications.md, "What a notification says"). */
export interface NotifyTask {
  id: string;
  title: string;
  status: string;
  priority: Priority | string;
  agent?: string;
  team?: string;
  project: string;
}

/** The event a notification is about, as the event log has it (`id`: the event's own id, for the receiver). */
export interface NotifyEvent {
  id: string;
  type: string;
  at: string;
  taskId?: string;
  payload: Record<string, unknown>;
}

/** Several events of one kind gathered into one notification: how many, the first few tasks and every event id. */
export interface Coalesced {
  count: number;
  taskIds: string[];
  eventIds: string[];
}

/**
 * One notification for one subscription: what is delivered (as `json`, or shaped by the subscription's format),
 * with the same `deliveryId` on every attempt so a receiver can drop a repeat.
 */
export interface Notification {
  deliveryId: string;
  subscription: string;
  event: NotifyEvent;
  task?: NotifyTask;
  why: string;
  action?: string;
  boardUrl?: string;
  coalesced?: Coalesced;
}

/**
 * An event offered to the notifier: a line of the event log, or the watchdog's critical report (`watchdog.critical`,
 * payload `{report, restarts, maxRestarts, windowMs}`); `id` when the caller has one, else derived from the event.
 */
export interface OfferedEvent {
  id?: string;
  timestamp: string;
  type: string;
  taskId?: string;
  actor?: string;
  payload: Record<string, unknown>;
}

/**
 * The id of an event: its own when given, else a digest of the event line (the same line read by any daemon, before or
 * after a restart, has the same id), so a receiver can drop a repeat.
 */
export function eventIdOf(event: OfferedEvent): string {
  if (event.id) return event.id;
  const line = JSON.stringify([event.timestamp, event.type, event.taskId ?? null, event.actor ?? null, event.payload]);
  return createHash('sha256').update(line).digest('hex').slice(0, 32);
}

/** The event of a notification, as it is delivered. */
export function toNotifyEvent(event: OfferedEvent): NotifyEvent {
  return {
    id: eventIdOf(event),
    type: event.type,
    at: event.timestamp,
    ...(event.taskId === undefined ? {} : { taskId: event.taskId }),
    payload: event.payload,
  };
}

/** A UUID-shaped id derived from `seed` (the same seed, the same id): a coalesced notification merged twice is one. */
export function uuidFrom(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const parts = [hex.slice(0, 8), hex.slice(8, 12), `5${hex.slice(13, 16)}`, `${variant}${hex.slice(17, 20)}`];
  return `${parts.join('-')}-${hex.slice(20, 32)}`;
}
