import { appendFileSync, readFileSync } from 'node:fs';
import { endRunLog, isEndLine } from '../store/records/run-logs.js';
import { toRunEnd } from './runtime-end.js';
import type { RunSummary } from './stream-watch.js';

/**
 * Completes the log of a run whose daemon was killed during it, once the run has ended: the readable lines of its
 * stream the log does not have yet, in order, then its end line, with the failure its stream tells.
 * `readable` is every readable line of the whole stream; those the earlier daemon wrote are found in the log.
 */
export function catchUpRunLog(logPath: string, read: { readable: string[]; summary: RunSummary }, at: Date): void {
  let lines: string[];
  try {
    lines = readFileSync(logPath, 'utf8').split('\n');
  } catch {
    return; // no log to complete
  }
  if (lines.some(isEndLine)) return;
  let written = 0;
  for (const line of lines) if (line === read.readable[written]) written++;
  const missing = read.readable.slice(written);
  const end = toRunEnd(read.summary, { code: null, signal: null, hung: false, idleMs: 0 });
  const how = `ended after its daemon restarted${end.ok ? '' : `; ${end.error}`}`;
  try {
    const prefix = lines.at(-1) === '' || lines.length === 0 ? '' : '\n';
    if (missing.length) appendFileSync(logPath, `${prefix}${missing.join('\n')}\n`);
    endRunLog(logPath, how, at);
  } catch {
    // the log is gone or full: the stream file keeps everything
  }
}
