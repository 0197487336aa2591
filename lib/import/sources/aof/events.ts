import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SourceProblem, SourceRecord } from '../record.js';
import type { AofStore } from './task.js';
import { readSourceFile, toReason } from '../read.js';

/** Most lines of a task's AOF history put in its `task.imported` event (the count says how many there were). */
export const MAX_HISTORY_LINES = 20;

/** One AOF event line as kept: the line itself and what the summary needs. */
export interface AofEvent {
  line: string;
  timestamp: string;
  summary: string;
}

/** AOF's event log: every line (in file order), the lines of each task, and the lines that are not JSON events. */
export interface AofEvents {
  lines: string[];
  /** Root events by the bare AOF task id; a project's own `events/` by `<project>/<id>`. */
  byTask: Map<string, AofEvent[]>;
  problems: SourceProblem[];
}

/**
 * Reads `events/*.jsonl` of the data directory and of each project. Only regular files are read:
 * AOF's `events.jsonl` is a symbolic link to the current day's file, which would count twice.
 */
export async function readAofEvents(path: string, stores: readonly AofStore[]): Promise<AofEvents> {
  const out: AofEvents = { lines: [], byTask: new Map(), problems: [] };
  const dirs = [
    { dir: join(path, 'events'), scope: '' },
    ...stores.filter((s) => s.eventsDir).map((s) => ({ dir: s.eventsDir!, scope: s.scope })),
  ];
  for (const { dir, scope } of dirs) {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl')).sort();
    for (const name of names) {
      const file = join(dir, name);
      if (!(await lstat(file)).isFile()) continue;
      const text = await readSourceFile(file, 'an AOF event log', path).catch(
        (err: unknown) =>
          void out.problems.push({ file, reason: `${toReason(err).replace(`${file} `, '')}; left out` }),
      );
      if (text === undefined) continue;
      const lines = text.split('\n');
      lines.forEach((line, i) => {
        if (!line.trim()) return;
        const event = toEvent(line);
        if (!event)
          return void out.problems.push({
            file: `${file}:${i + 1}`,
            reason:
              'not a JSON event (expected an object with type and timestamp, ' +
              'as AOF writes); left out of data/imports/aof-events.jsonl',
          });
        out.lines.push(line);
        if (event.taskId) {
          const key = `${scope}${event.taskId}`;
          out.byTask.set(key, [...(out.byTask.get(key) ?? []), event.kept]);
        }
      });
    }
  }
  return out;
}

/**
 * Gives each record the summary of its AOF events (oldest first, the last MAX_HISTORY_LINES).
 * AOF's events name a task by id alone, so a root event goes to every task with that id.
 */
export function attachHistory(records: SourceRecord[], byTask: ReadonlyMap<string, AofEvent[]>): void {
  for (const record of records) {
    const own = record.sourceId === record.wantedId ? [] : (byTask.get(record.sourceId) ?? []);
    const events = [...(byTask.get(record.wantedId ?? record.sourceId) ?? []), ...own].sort((a, b) =>
      a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0,
    );
    if (events.length)
      record.history = { count: events.length, lines: events.slice(-MAX_HISTORY_LINES).map((event) => event.summary) };
  }
}

// --- internal ---

function toEvent(line: string): { taskId?: string; kept: AofEvent } | null {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
  const { type, timestamp, actor, taskId, payload } = data as Record<string, unknown>;
  if (typeof type !== 'string' || typeof timestamp !== 'string') return null;
  const p = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  const move = typeof p.from === 'string' && typeof p.to === 'string' ? ` ${p.from} -> ${p.to}` : '';
  const why = typeof p.reason === 'string' && p.reason ? ` (${p.reason})` : '';
  const summary = `${timestamp} ${type}${move}${typeof actor === 'string' ? ` by ${actor}` : ''}${why}`;
  return { ...(typeof taskId === 'string' ? { taskId } : {}), kept: { line, timestamp, summary } };
}
