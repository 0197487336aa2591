import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Usage } from '../core/usage.js';
import type { RuntimeName } from '../org/runtimes.js';
import type { Run } from './runs.js';
import { readRuntimeRecord } from './runtime-record.js';
import { RUNTIMES_BY_NAME } from './runtimes/index.js';
import { type StreamWatch, watchStream } from './stream-watch.js';

/** Where an adopted run's record is, and what to do once it is idle. */
export interface FollowOptions {
  /** `data/runtimes/`. */
  dir: string;
  /** The run idle timeout of an agent (its own, else the daemon's). */
  idleMs: (agent: string) => number;
  onIdle: (run: Run, idleMs: number) => void;
  /** Prices each usage for the log's lines (`aof.pricing`). */
  price?: (usage: Usage, model: string | null) => Usage;
}

/**
 * Follows the stream of a run an earlier daemon started (found alive at this daemon's start): the readable lines its
 * log does not have yet are appended as they come, and `onIdle` is called once nothing but retry notices came for
 * the agent's `runIdleTimeoutMs`. Null when the run is not an agent CLI's.
 */
export function followAdoptedRun(run: Run, options: FollowOptions): StreamWatch | null {
  const record = readRuntimeRecord(join(options.dir, `${run.taskId}@${run.sessionId}`));
  const runtime = record && RUNTIMES_BY_NAME[record.runtime as RuntimeName];
  if (!record || !runtime) return null;
  const place = { home: record.home, cwd: record.cwd, stateDir: record.stateDir, env: { HOME: record.home } };
  const logPath = record.rawPath.replace(/\.stream\.jsonl$/, '.log');
  const idleMs = options.idleMs(record.agent);
  return watchStream({
    rawPath: record.rawPath,
    logPath,
    parser: runtime.parser({ ...place, ...(record.resume ? { resume: record.resume } : {}), before: record.before }),
    idleMs,
    ...(options.price ? { price: options.price } : {}),
    logged: readLines(logPath),
    onIdle: () => {
      note(logPath, `[svc] ending the run: no output for ${Math.round(idleMs / 1000)} s (runIdleTimeoutMs)`);
      options.onIdle(run, idleMs);
    },
  });
}

function note(path: string, line: string): void {
  try {
    appendFileSync(path, `${line}\n`);
  } catch {
    // the log is a convenience here
  }
}

/** The lines `formatRunEvent` writes (other lines of the log are the CLI's stderr and svc's notes). */
const READABLE = /^\[(session|model|text|call|result|usage|denied|retrying|error|end)\] /;

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => READABLE.test(line));
  } catch {
    return [];
  }
}
