import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { hasCode } from '../core/errors.js';
import type { Paths } from '../store/disk/paths.js';

/** Lines of a task's logs (docs/web-board.md, "Task page"). */
export interface LogLines {
  /** `runs`: the task's own run logs; `agents`: the lines of the shared agent and daemon logs that name the task. */
  source: 'runs' | 'agents';
  lines: Array<{ file: string; line: string }>;
}

/** How often the log files are looked at again while a page follows them. */
const POLL_MS = 250;
/** How much of a file a page gets when it starts following (the tail). */
const TAIL_BYTES = 64 * 1024;
/** The most bytes read at once from a growing file. */
const CHUNK_BYTES = 256 * 1024;

/**
 * Follows the logs of `taskId`: its run logs (`data/logs/runs/<id>/*.log`) when there are any, else
 * the lines of `data/logs/agents.log` and `data/logs/daemon.log` that name it. Calls `onLines` with
 * the tail first, then with each batch of new lines, until `signal` aborts.
 */
export async function followTaskLogs(
  paths: Paths,
  taskId: string,
  { onLines, signal }: { onLines: (batch: LogLines) => void; signal: AbortSignal },
): Promise<void> {
  const offsets = new Map<string, number>();
  const partial = new Map<string, string>();
  while (!signal.aborted) {
    const runs = await listRunLogs(paths, taskId);
    const source = runs.length ? 'runs' : 'agents';
    const files = runs.length ? runs : [join(paths.logs, 'agents.log'), paths.daemonLog];
    const lines: LogLines['lines'] = [];
    for (const file of files) {
      const text = await readNew(file, offsets, partial);
      for (const line of text)
        if (source === 'runs' || line.includes(taskId)) lines.push({ file: file.slice(paths.logs.length + 1), line });
    }
    if (lines.length) onLines({ source, lines });
    await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
  }
}

// --- internal ---

async function listRunLogs(paths: Paths, taskId: string): Promise<string[]> {
  if (!/^[A-Za-z0-9._-]+$/.test(taskId)) return [];
  const dir = join(paths.runLogs, taskId);
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((name) => name.endsWith('.log'))
    .sort()
    .map((name) => join(dir, name));
}

/** The whole lines added to `file` since the last read (the tail on the first). */
async function readNew(file: string, offsets: Map<string, number>, partial: Map<string, string>): Promise<string[]> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return [];
    throw err;
  }
  const first = !offsets.has(file);
  let from = offsets.get(file) ?? Math.max(0, size - TAIL_BYTES);
  if (size < from) from = 0; // truncated or replaced: start over
  if (size === from) {
    offsets.set(file, from);
    return [];
  }
  const length = Math.min(size - from, CHUNK_BYTES);
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, from);
    offsets.set(file, from + bytesRead);
    const text = (partial.get(file) ?? '') + buffer.subarray(0, bytesRead).toString('utf8');
    const lines = text.split('\n');
    partial.set(file, lines.pop() ?? '');
    return first && from > 0 ? lines.slice(1) : lines; // a tail starts mid-line
  } finally {
    await handle.close();
  }
}
