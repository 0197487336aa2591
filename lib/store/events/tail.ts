import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SvcEvent } from './log.js';
import { toPaths } from '../disk/paths.js';

/** Options of `createEventTail`. */
export interface EventTailOptions {
  /** Skip the files of UTC days before this one (`YYYY-MM-DD`). */
  fromDay?: string;
  onEvent(event: SvcEvent): void;
  /** A complete line that is not a JSON event (`line` counts from 1 in its file). */
  onBadLine?(file: string, line: number, text: string): void;
}

/** A reader of the event log that remembers where it stopped. */
export interface EventTail {
  /** Reads what was appended since the last call: the rest of each day file, then any newer day. */
  read(): Promise<void>;
  /** Calls `read` every `intervalMs` until `close()`; errors go to `onError`. */
  follow(intervalMs: number, onError: (err: unknown) => void): { close(): Promise<void> };
}

/**
 * Reads `data/events/YYYY-MM-DD.jsonl`, oldest day first, complete lines only: a last line without
 * its newline is an append in progress and is read once it is complete. Reads only node's fs, so
 * a command that just prints events loads no store, schema or YAML code.
 */
export function createEventTail(root: string, options: EventTailOptions): EventTail {
  const dir = toPaths(root).events;
  const files = new Map<string, FileState>();
  let newest: string | null = null;
  const read = async () => {
    const days = await listDays(dir, options.fromDay);
    // the newest known file and every later one; the one before it too, for an append that raced midnight
    const start = newest === null ? 0 : Math.max(0, days.indexOf(newest) - 1);
    for (const name of days.slice(start)) {
      await drain(join(dir, name), files.get(name) ?? setNew(files, name), options);
      if (newest === null || name > newest) newest = name;
    }
  };
  return {
    read,
    follow(intervalMs, onError) {
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<void> = Promise.resolve();
      let closed = false;
      const tick = () => {
        running = read()
          .catch(onError)
          .then(() => {
            if (!closed) timer = setTimeout(tick, intervalMs);
          });
      };
      timer = setTimeout(tick, intervalMs);
      return {
        async close() {
          closed = true;
          clearTimeout(timer);
          await running;
        },
      };
    },
  };
}

// --- internal ---

const CHUNK = 1024 * 1024;

interface FileState {
  offset: number;
  line: number;
  partial: Buffer;
}

function setNew(files: Map<string, FileState>, name: string): FileState {
  const state = { offset: 0, line: 0, partial: Buffer.alloc(0) };
  files.set(name, state);
  return state;
}

async function listDays(dir: string, fromDay: string | undefined): Promise<string[]> {
  try {
    return (await readdir(dir))
      .filter((name) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(name) && (!fromDay || name.slice(0, 10) >= fromDay))
      .sort();
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return [];
    throw err;
  }
}

/** Reads a file from where it was left to its end (1 MiB at a time) and emits each complete line. */
async function drain(file: string, state: FileState, options: EventTailOptions): Promise<void> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return;
  try {
    const { size } = await handle.stat();
    // replaced: read it again
    if (size < state.offset) Object.assign(state, { offset: 0, line: 0, partial: Buffer.alloc(0) });
    while (state.offset < size) {
      const chunk = Buffer.alloc(Math.min(CHUNK, size - state.offset));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, state.offset);
      if (bytesRead === 0) break;
      state.offset += bytesRead;
      let data = state.partial.length
        ? Buffer.concat([state.partial, chunk.subarray(0, bytesRead)])
        : chunk.subarray(0, bytesRead);
      for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10)) {
        emit({ file, line: ++state.line }, data.subarray(0, end).toString('utf8'), options);
        data = data.subarray(end + 1);
      }
      state.partial = Buffer.from(data);
    }
  } finally {
    await handle.close();
  }
}

/** Hands one line of `file` (numbered from 1) on as an event, or as a bad line. */
function emit({ file, line }: { file: string; line: number }, text: string, options: EventTailOptions): void {
  if (!text.trim()) return;
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    return options.onBadLine?.(file, line, text);
  }
  if (!isEvent(event)) return options.onBadLine?.(file, line, text);
  options.onEvent(event);
}

function isEvent(value: unknown): value is SvcEvent {
  const event = value as Partial<SvcEvent> | null;
  return (
    typeof event === 'object' && event !== null && typeof event.timestamp === 'string' && typeof event.type === 'string'
  );
}
