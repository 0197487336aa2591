import { appendFile, readFile, readdir } from 'node:fs/promises';
import { ensureDir, hasCode } from '../fs/atomic.js';
import { toIdDate } from '../core/ids.js';
import { toPaths } from './paths.js';

/** One line of the event log. */
export interface SvcEvent {
  timestamp: string;
  type: string;
  taskId?: string;
  actor: string;
  payload: Record<string, unknown>;
}

/** What a caller supplies; the timestamp comes from `now`. */
export type EventInput = Omit<SvcEvent, 'timestamp'>;

/** Appends events to `data/events/<UTC date>.jsonl`, each line in a single write. */
export async function appendEvents(root: string, now: Date, events: readonly EventInput[]): Promise<void> {
  if (events.length === 0) return;
  const paths = toPaths(root);
  const timestamp = now.toISOString();
  const lines = events.map((event) => `${JSON.stringify(toEvent(event, timestamp))}\n`).join('');
  const file = paths.eventFile(toIdDate(now));
  try {
    await appendFile(file, lines);
  } catch (err) {
    if (!hasCode(err, 'ENOENT')) throw err;
    await ensureDir(paths.events, 0o700);
    await appendFile(file, lines);
  }
}

/** Reads events, oldest first, optionally only of some days or types. */
export async function readEvents(root: string, filter: { taskId?: string; type?: string; days?: number } = {}): Promise<SvcEvent[]> {
  const { events: dir } = toPaths(root);
  let files: string[];
  try {
    files = (await readdir(dir)).filter((name) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(name)).sort();
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return [];
    throw err;
  }
  if (filter.days !== undefined) files = files.slice(-filter.days);
  const out: SvcEvent[] = [];
  for (const name of files) {
    const text = await readFile(`${dir}/${name}`, 'utf8');
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      let event: SvcEvent;
      try {
        event = JSON.parse(line) as SvcEvent;
      } catch {
        continue; // a torn last line after a crash is skipped, never fatal
      }
      if (filter.taskId && event.taskId !== filter.taskId) continue;
      if (filter.type && event.type !== filter.type) continue;
      out.push(event);
    }
  }
  return out;
}

// --- internal ---

function toEvent(input: EventInput, timestamp: string): SvcEvent {
  if (!input.taskId) return { timestamp, type: input.type, actor: input.actor, payload: input.payload };
  return { timestamp, type: input.type, taskId: input.taskId, actor: input.actor, payload: input.payload };
}
