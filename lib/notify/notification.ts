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
