import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hasCode } from '../core/errors.js';
import { ensureDir, unlinkDurable, writeDurable } from '../fs/atomic.js';
import type { Paths } from '../store/disk/paths.js';
import type { Notification } from './notification.js';

/** One file of the outbox: the notification and where its delivery stands. */
export interface OutboxEntry {
  notification: Notification;
  createdAt: string;
  attempts: number;
  nextAttemptAt: string;
  lastError?: string;
  /** When `svc notify retry` last put it back: giving up counts from here, not from `createdAt`. */
  retriedAt?: string;
  /** When it moved to `failed/`. */
  failedAt?: string;
}

/** `data/outbox/` (one `<deliveryId>.json` a delivery), its `failed/`, and its bookkeeping. */
export function outboxDirs(paths: Paths): {
  pending: string;
  failed: string;
  coalesce: string;
  disabled: string;
  rates: string;
} {
  const pending = paths.outbox;
  return {
    pending,
    failed: paths.outboxFailed,
    coalesce: join(pending, 'coalesce'),
    disabled: join(pending, 'disabled.json'),
    rates: join(pending, 'rate-limits.json'),
  };
}

/** The file of a delivery, pending or failed. */
export function entryFile(paths: Paths, deliveryId: string, failed = false): string {
  const dirs = outboxDirs(paths);
  return join(failed ? dirs.failed : dirs.pending, `${deliveryId}.json`);
}

/** Writes a delivery's file durably (a crash never loses it, nor an attempt counted in it). */
export async function writeEntry(paths: Paths, entry: OutboxEntry, failed = false): Promise<void> {
  const dirs = outboxDirs(paths);
  await ensureDir(failed ? dirs.failed : dirs.pending, 0o700);
  await writeDurable(entryFile(paths, entry.notification.deliveryId, failed), `${JSON.stringify(entry, null, 2)}\n`);
}

/** Removes a pending delivery's file (delivered); false when it was already gone. */
export async function removeEntry(paths: Paths, deliveryId: string): Promise<boolean> {
  return unlinkDurable(entryFile(paths, deliveryId));
}

/** Moves a delivery to `failed/`: written there first, then removed from pending (a crash between keeps both). */
export async function moveToFailed(paths: Paths, entry: OutboxEntry): Promise<void> {
  await writeEntry(paths, entry, true);
  await removeEntry(paths, entry.notification.deliveryId);
}

/**
 * The deliveries of the outbox (`failed`: those of `failed/`), oldest first; readable without a daemon. A file that
 * does not parse (a hand edit) is skipped; a delivery found both pending and failed (a crash mid-move) is pending.
 */
export async function listOutbox(paths: Paths, options: { failed?: boolean } = {}): Promise<OutboxEntry[]> {
  const dirs = outboxDirs(paths);
  const entries = await readEntries(options.failed ? dirs.failed : dirs.pending);
  if (!options.failed) return entries;
  const pending = new Set((await readEntries(dirs.pending)).map((e) => e.notification.deliveryId));
  return entries.filter((e) => !pending.has(e.notification.deliveryId));
}

/**
 * Puts deliveries back to pending, due now: failed ones back from `failed/` (their give-up clock restarted), pending
 * ones sooner than their next attempt. `which`: a delivery id, a subscription id, or `all`. Returns those changed.
 */
export async function retryOutbox(paths: Paths, options: { which: string; now: Date }): Promise<OutboxEntry[]> {
  const matches = (e: OutboxEntry) =>
    options.which === 'all' ||
    e.notification.deliveryId === options.which ||
    e.notification.subscription === options.which;
  const now = options.now.toISOString();
  const changed: OutboxEntry[] = [];
  for (const entry of (await listOutbox(paths, { failed: true })).filter(matches)) {
    const { failedAt: _, ...rest } = entry;
    const back: OutboxEntry = { ...rest, nextAttemptAt: now, retriedAt: now };
    await writeEntry(paths, back);
    await unlinkDurable(entryFile(paths, entry.notification.deliveryId, true));
    changed.push(back);
  }
  for (const entry of (await listOutbox(paths)).filter(matches)) {
    if (entry.nextAttemptAt <= now) continue;
    const sooner: OutboxEntry = { ...entry, nextAttemptAt: now };
    await writeEntry(paths, sooner);
    changed.push(sooner);
  }
  return changed;
}

/** The delivery ids of the outbox's files (`failed`: of `failed/`), without reading them. */
export async function listDeliveryIds(paths: Paths, failed = false): Promise<Set<string>> {
  const dirs = outboxDirs(paths);
  const names = await namesIn(failed ? dirs.failed : dirs.pending);
  return new Set(names.map((name) => name.slice(0, -'.json'.length)));
}

/** One delivery's file, or null when it is gone or does not parse. */
export async function readDelivery(paths: Paths, deliveryId: string, failed = false): Promise<OutboxEntry | null> {
  const entry = await readEntry(entryFile(paths, deliveryId, failed));
  return entry?.notification.deliveryId === deliveryId ? entry : null;
}

// --- internal ---

/** The names of the delivery files of a folder (`<deliveryId>.json`; not `disabled.json`, not temporaries). */
async function namesIn(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return [];
    throw err;
  }
  return names.filter((n) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/.test(n));
}

async function readEntries(dir: string): Promise<OutboxEntry[]> {
  const entries: OutboxEntry[] = [];
  for (const name of await namesIn(dir)) {
    const entry = await readEntry(join(dir, name));
    if (entry && `${entry.notification.deliveryId}.json` === name) entries.push(entry);
  }
  return entries.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

async function readEntry(file: string): Promise<OutboxEntry | null> {
  try {
    const entry = JSON.parse(await readFile(file, 'utf8')) as OutboxEntry;
    return typeof entry?.notification?.deliveryId === 'string' && typeof entry.nextAttemptAt === 'string'
      ? entry
      : null;
  } catch {
    return null;
  }
}
