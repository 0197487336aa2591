import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { SvcEvent } from '../../store/events/log.js';
import type { Paths } from '../../store/disk/paths.js';
import { listDays, type EventCursor } from './cursor.js';

/** One event read past the cursor: its id (`<day>:<byte offset>`, stable for every reader of the tree). */
export interface FedEvent {
  id: string;
  day: string;
  /** The offset just past its line: where the cursor goes once it is offered. */
  end: number;
  event: SvcEvent;
}

/** The most read in one call (the rest is read by the next). */
const MAX_BYTES = 1024 * 1024;

/**
 * The complete lines of the event log past `cursor`, oldest first: the rest of each day file the cursor knows and
 * every newer day from its start; a day older than the cursor's days is not read. A line that is not an event is
 * passed over (its offset still advances, through the next event or `ends`).
 */
export async function readPastCursor(
  paths: Paths,
  cursor: EventCursor,
): Promise<{ events: FedEvent[]; ends: Record<string, number> }> {
  const known = Object.keys(cursor.days).sort();
  const oldest = known[0];
  const events: FedEvent[] = [];
  const ends: Record<string, number> = {};
  let budget = MAX_BYTES;
  for (const day of await listDays(paths)) {
    if (oldest !== undefined && day < oldest) continue;
    if (budget <= 0) break;
    const from = cursor.days[day] ?? 0;
    const read = await readLines(join(paths.events, `${day}.jsonl`), from, budget);
    budget -= read.end - from;
    ends[day] = read.end;
    for (const line of read.lines) {
      const event = toEvent(line.text);
      if (event) events.push({ id: `${day}:${line.start}`, day, end: line.end, event });
    }
  }
  return { events, ends };
}

// --- internal ---

interface Line {
  start: number;
  end: number;
  text: string;
}

/** The complete lines of `file` from `from`, reading at most `max` bytes; `end` is past the last complete line. */
async function readLines(file: string, from: number, max: number): Promise<{ lines: Line[]; end: number }> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return { lines: [], end: from };
  try {
    const { size } = await handle.stat();
    // a file smaller than the offset was replaced: what it holds now is not read again
    if (size <= from) return { lines: [], end: Math.min(from, size) };
    const buffer = Buffer.alloc(Math.min(max, size - from));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, from);
    const lines: Line[] = [];
    let start = 0;
    for (let nl = buffer.indexOf(10, 0); nl !== -1 && nl < bytesRead; nl = buffer.indexOf(10, start)) {
      lines.push({ start: from + start, end: from + nl + 1, text: buffer.subarray(start, nl).toString('utf8') });
      start = nl + 1;
    }
    return { lines, end: from + start };
  } finally {
    await handle.close();
  }
}

function toEvent(text: string): SvcEvent | null {
  if (!text.trim()) return null;
  try {
    const value = JSON.parse(text) as Partial<SvcEvent> | null;
    if (typeof value !== 'object' || value === null) return null;
    if (typeof value.type !== 'string' || typeof value.timestamp !== 'string') return null;
    return { ...value, payload: typeof value.payload === 'object' && value.payload ? value.payload : {} } as SvcEvent;
  } catch {
    return null;
  }
}
