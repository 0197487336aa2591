import { lstat } from 'node:fs/promises';
import type { Paths } from '../store/disk/paths.js';
import { entryFile, listDeliveryIds, type OutboxEntry, readDelivery } from './outbox.js';

/** What a delivery loop knows of the outbox: its pending deliveries, its failed ones (id to subscription). */
export interface OutboxView {
  pending: Map<string, OutboxEntry>;
  failed: Map<string, string>;
  /** Deliveries being attempted now: left as they are. */
  busy: ReadonlySet<string>;
}

/**
 * Brings a loop's view in line with the disk: a delivery another process wrote (another daemon's offer, `svc notify
 * retry` without a daemon) is added, one whose file is gone (delivered elsewhere, retried out of `failed/`) dropped.
 * Only names are listed; a file is read only when it is new to the view.
 */
export async function syncOutbox(paths: Paths, view: OutboxView): Promise<void> {
  const pendingIds = await listDeliveryIds(paths);
  for (const id of pendingIds) {
    if (view.pending.has(id)) continue;
    const entry = await readDelivery(paths, id);
    if (entry && !view.pending.has(id)) view.pending.set(id, entry);
  }
  for (const id of [...view.pending.keys()]) {
    if (pendingIds.has(id) || view.busy.has(id)) continue;
    // listed before it was written? only a file still missing now is gone
    if (!(await exists(entryFile(paths, id))) && !view.busy.has(id)) view.pending.delete(id);
  }
  const failedIds = await listDeliveryIds(paths, true);
  for (const id of failedIds) {
    if (view.failed.has(id) || pendingIds.has(id)) continue;
    const entry = await readDelivery(paths, id, true);
    if (entry) view.failed.set(id, entry.notification.subscription);
  }
  for (const id of [...view.failed.keys()]) {
    if (!failedIds.has(id) || pendingIds.has(id)) view.failed.delete(id);
  }
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}
