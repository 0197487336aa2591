import { readFile, readdir } from 'node:fs/promises';
import { hasCode } from '../../core/errors.js';
import { appendWhole } from '../../fs/append.js';
import { ensureDir } from '../../fs/atomic.js';
import { toIdDate } from '../../core/ids.js';
import type { EventInput, EventType, SvcEvent } from '../../core/events.js';
import { mergeEventSpool, spoolEventLines } from './spool.js';
import { toPaths } from '../disk/paths.js';

/**
 * One line of the event log, and what a caller supplies (the timestamp comes from `now`): declared in
 * lib/core/events.ts.
 */
export type { EventInput, SvcEvent } from '../../core/events.js';

/** Appends events to `data/events/<UTC date>.jsonl`, each line in a single write. */
export async function appendEvents(root: string, now: Date, events: readonly EventInput[]): Promise<void> {
  if (events.length === 0) return;
  const timestamp = now.toISOString();
  const lines = events.map((event) => `${JSON.stringify(toEvent(event, timestamp))}\n`).join('');
  await appendToDay(root, toIdDate(now), lines);
}

/** Options of `createEventLog`. */
export interface EventLogOptions {
  /**
   * Told when lines could not be appended: they are kept for a retry (`pending` counts the lines
   * waiting) or, with `spool`, written to the spool file `spooledTo`.
   */
  onError?: (err: unknown, pending: number, spooledTo?: string) => void;
  /** Lines kept for a retry at most; past it the oldest are dropped and `dropped()` counts them. */
  maxPending?: number;
  /**
   * Write lines that cannot be appended to `data/events-spool/` rather than keep them in memory:
   * for a process that may exit before a retry (a command). Kept in memory if the spool fails too.
   */
  spool?: boolean;
  /** Told of every batch of events as it is recorded, before the append (the daemon's metrics count them). */
  onRecord?: (events: readonly EventInput[]) => void;
}

/** The event log as a committed change records to it: `record` never rejects. */
export interface EventLog {
  /** Appends the events (after any still pending); a failure is reported and the lines kept for a retry. */
  record(now: Date, events: readonly EventInput[]): Promise<void>;
  /** Retries the pending lines; true when none are left. */
  flush(): Promise<boolean>;
  /** Lines waiting for a retry. */
  pending(): number;
  /** Lines given up on because too many were pending. */
  dropped(): number;
  /** Appends what the spool holds (of any process) to the day files; the number of lines appended. */
  mergeSpool(): Promise<number>;
  /** Writes the pending lines to a spool file (before an exit); its path, or undefined when none were pending. */
  spoolPending(): Promise<string | undefined>;
}

/**
 * The event log of a root for changes that already happened: an event that cannot be appended
 * (a full disk, an unwritable `data/events/`) never turns a committed change into a failed call.
 * The lines are kept in order and written before the next ones, or by `flush`. The lines recorded
 * in one event-loop turn, or while an append runs, are written by one append (a batch of changes
 * answered together records theirs together); an append is not fsynced.
 */
export function createEventLog(root: string, options: EventLogOptions = {}): EventLog {
  const maxPending = options.maxPending ?? 100_000;
  let pending: DayLine[] = [];
  let dropped = 0;
  /** The spool is merged after the first append of a process that works, and after each spooling. */
  let mergeDue = true;
  let writing: Promise<unknown> = Promise.resolve();
  const serial = <T>(job: () => Promise<T>): Promise<T> => {
    const next = writing.then(job);
    writing = next.catch(() => undefined);
    return next;
  };
  const merge = async (): Promise<number> => {
    mergeDue = false;
    try {
      return await mergeEventSpool(root);
    } catch {
      mergeDue = true; // tried again after the next append that works
      return 0;
    }
  };
  const toSpool = async (lines: DayLine[]): Promise<string> => {
    const file = await spoolEventLines(root, lines.map((l) => l.line).join(''));
    mergeDue = true;
    return file;
  };
  const append = async (lines: DayLine[]): Promise<boolean> => {
    const batch = pending.concat(lines);
    let written = 0;
    try {
      for (const day of toDays(batch)) {
        await appendToDay(root, day.date, day.text);
        written += day.count;
      }
      pending = [];
    } catch (err) {
      const left = batch.slice(written);
      if (options.spool) {
        try {
          const file = await toSpool(left);
          pending = [];
          options.onError?.(err, 0, file);
          return false;
        } catch {
          // the spool cannot be written either: keep the lines in memory as without it
        }
      }
      pending = left.slice(Math.max(0, left.length - maxPending));
      dropped += left.length - pending.length;
      options.onError?.(err, pending.length);
      return false;
    }
    if (mergeDue) await merge();
    return true;
  };
  /** The lines recorded while an append runs or waits for its turn: they go in the next single append. */
  let gathering: { lines: DayLine[]; done: Promise<boolean> } | null = null;
  const write = (lines: readonly DayLine[]): Promise<boolean> => {
    if (gathering) {
      gathering.lines.push(...lines);
      return gathering.done;
    }
    const group = { lines: [...lines], done: Promise.resolve(true) };
    gathering = group;
    group.done = serial(async () => {
      await nextTurn(); // the changes answered in this event-loop turn (a batch) record theirs meanwhile
      if (gathering === group) gathering = null;
      return append(group.lines);
    });
    return group.done;
  };
  return {
    async record(now, events) {
      if (events.length === 0) return;
      options.onRecord?.(events);
      const timestamp = now.toISOString();
      const date = toIdDate(now);
      await write(events.map((event) => ({ date, line: `${JSON.stringify(toEvent(event, timestamp))}\n` })));
    },
    flush: () => write([]),
    pending: () => pending.length,
    dropped: () => dropped,
    mergeSpool: () => serial(merge),
    spoolPending: () =>
      serial(async () => {
        if (pending.length === 0) return undefined;
        const file = await toSpool(pending);
        pending = [];
        return file;
      }),
  };
}

/**
 * Reads events, oldest first, optionally only of some days (the last `days` files, or from the UTC day `from` on) or
 * types.
 */
export async function readEvents(
  root: string,
  filter: { taskId?: string; type?: EventType; days?: number; from?: string } = {},
): Promise<SvcEvent[]> {
  const { events: dir } = toPaths(root);
  let files: string[];
  try {
    files = (await readdir(dir)).filter((name) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(name)).sort();
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return [];
    throw err;
  }
  if (filter.days !== undefined) files = files.slice(-filter.days);
  if (filter.from !== undefined) files = files.filter((name) => name >= `${filter.from}.jsonl`);
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

async function appendToDay(root: string, date: string, lines: string): Promise<void> {
  const paths = toPaths(root);
  const file = paths.eventFile(date);
  try {
    await appendWhole(file, lines);
  } catch (err) {
    if (!hasCode(err, 'ENOENT')) throw err;
    await ensureDir(paths.events, 0o700);
    await appendWhole(file, lines);
  }
}

/** One line of the log and the day file it belongs in. */
interface DayLine {
  date: string;
  line: string;
}

/** Consecutive lines of one day joined, in order (one append each). */
function toDays(lines: readonly DayLine[]): { date: string; text: string; count: number }[] {
  const out: { date: string; text: string; count: number }[] = [];
  for (const { date, line } of lines) {
    const last = out[out.length - 1];
    if (last?.date === date) {
      last.text += line;
      last.count++;
    } else out.push({ date, text: line, count: 1 });
  }
  return out;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function toEvent(input: EventInput, timestamp: string): SvcEvent {
  if (!input.taskId) return { timestamp, type: input.type, actor: input.actor, payload: input.payload };
  return { timestamp, type: input.type, taskId: input.taskId, actor: input.actor, payload: input.payload };
}
