import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { hasCode } from '../../core/errors.js';
import { ensureDir, writeDurable } from '../../fs/atomic.js';
import type { Paths } from '../../store/disk/paths.js';
import { outboxDirs } from '../../notify/outbox.js';

/**
 * Where the notifier has read the event log to (`data/outbox/cursor.json`): the byte offset reached in each of the
 * last two day files (the day before the newest too, for an append that raced midnight).
 */
export interface EventCursor {
  days: Record<string, number>;
}

/** How many day files the cursor keeps offsets of. */
const KEPT_DAYS = 2;

/** `data/outbox/cursor.json`. */
export function cursorFile(paths: Paths): string {
  return join(outboxDirs(paths).pending, 'cursor.json');
}

/** The saved cursor, or null when there is none (a first start) or it cannot be read as one. */
export async function loadCursor(paths: Paths): Promise<EventCursor | null> {
  let text: string;
  try {
    text = await readFile(cursorFile(paths), 'utf8');
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return null;
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as { days?: unknown };
    if (typeof parsed.days !== 'object' || parsed.days === null) return null;
    const days = Object.entries(parsed.days).filter(([day, offset]) => isDay(day) && Number.isSafeInteger(offset));
    return { days: Object.fromEntries(days) as Record<string, number> };
  } catch {
    return null;
  }
}

/** Writes the cursor durably, keeping the offsets of its last two days only. */
export async function saveCursor(paths: Paths, cursor: EventCursor): Promise<void> {
  const kept = Object.keys(cursor.days).sort().slice(-KEPT_DAYS);
  const days = Object.fromEntries(kept.map((day) => [day, cursor.days[day]!]));
  await ensureDir(outboxDirs(paths).pending, 0o700);
  await writeDurable(cursorFile(paths), `${JSON.stringify({ days })}\n`);
}

/** A cursor at the log's end as it is now: a first start notifies what happens from now on, not the history. */
export async function cursorAtEnd(paths: Paths): Promise<EventCursor> {
  const days: Record<string, number> = {};
  for (const day of (await listDays(paths)).slice(-KEPT_DAYS)) {
    days[day] = await stat(join(paths.events, `${day}.jsonl`)).then(
      (s) => s.size,
      () => 0,
    );
  }
  return { days };
}

/** The day files of the event log (`YYYY-MM-DD`), oldest first. */
export async function listDays(paths: Paths): Promise<string[]> {
  try {
    return (await readdir(paths.events))
      .filter((name) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(name))
      .map((name) => name.slice(0, 10))
      .sort();
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return [];
    throw err;
  }
}

// --- internal ---

function isDay(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value);
}
