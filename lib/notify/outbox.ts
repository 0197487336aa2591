import { join } from 'node:path';
import type { Paths } from '../store/disk/paths.js';
import type { Notification } from './notification.js';

/** One file of the outbox: the notification and where its delivery stands. */
export interface OutboxEntry {
  notification: Notification;
  createdAt: string;
  attempts: number;
  nextAttemptAt: string;
  lastError?: string;
  /** When it moved to `failed/`. */
  failedAt?: string;
}

/** `data/outbox/` and its `failed/`. */
export function outboxDirs(paths: Paths): { pending: string; failed: string } {
  const pending = join(paths.data, 'outbox');
  return { pending, failed: join(pending, 'failed') };
}

/** The deliveries of the outbox (`failed`: those of `failed/`), oldest first; readable without a daemon. */
export async function listOutbox(paths: Paths, options: { failed?: boolean } = {}): Promise<OutboxEntry[]> {
  void paths;
  void options;
  throw new Error('not built yet');
}
