import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeName } from '../org/runtimes.js';
import type { RuntimeHooks, RuntimeRunRef } from './runtime-hooks.js';
import { RUNTIMES_BY_NAME } from './runtimes/index.js';
import { readStream } from './stream-watch.js';
import { hasRunProcesses } from './run-processes.js';
import { catchUpRunLog } from './runtime-catchup.js';

/**
 * What `data/runtimes/<task id>@<session>/run.json` keeps: enough to record a run that ended while no daemon watched.
 */
export interface RuntimeRecordFile extends RuntimeRunRef {
  rawPath: string;
  model: string | null;
  /** Where the CLI keeps its sessions, and the session the run resumed (its parser reads against it). */
  home: string;
  cwd: string;
  stateDir: string;
  resume?: string;
  /** The resumed session as it was when the run started (`Runtime.before`). */
  before?: unknown;
}

/** Writes a run's record into its directory. */
export function writeRuntimeRecord(runDir: string, record: RuntimeRecordFile): void {
  writeFileSync(join(runDir, 'run.json'), `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

/**
 * Records the runs of agent CLIs that ended while no daemon watched them (a daemon killed during a run): the stream
 * file read whole, the lines its log misses and its end line written, the session and usage recorded once
 * (`onRecord` is idempotent per run), the run's directory removed. `live` names the runs still going
 * (`<task id>@<session>`), left alone, as is a run whose processes still run (one being started).
 */
export async function settleRuntimeRuns(
  dir: string,
  { live, hooks }: { live: ReadonlySet<string>; hooks: RuntimeHooks },
): Promise<number> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let settled = 0;
  for (const name of names) {
    if (live.has(name)) continue;
    const runDir = join(dir, name);
    const record = readRuntimeRecord(runDir);
    if (record && hasRunProcesses(record.sessionId)) continue; // still going: started, not yet among `live`
    if (record) {
      const runtime = RUNTIMES_BY_NAME[record.runtime as RuntimeName];
      let text = '';
      try {
        text = readFileSync(record.rawPath, 'utf8');
      } catch {
        // no stream was written: nothing to record beyond the session
      }
      const place = { home: record.home, cwd: record.cwd, stateDir: record.stateDir, env: { HOME: record.home } };
      const readable: string[] = [];
      const price = hooks.price;
      const summary = runtime
        ? readStream(
            runtime.parser({ ...place, ...(record.resume ? { resume: record.resume } : {}), before: record.before }),
            text,
            {
              readable,
              ...(price ? { price: (usage, model) => price(usage, model ?? record.model) } : {}),
            },
          )
        : null;
      if (summary) catchUpRunLog(record.rawPath.replace(/\.stream\.jsonl$/, '.log'), { readable, summary }, new Date());
      const model = summary?.model ?? record.model;
      const usage = summary?.usage ?? null;
      const {
        rawPath: _raw,
        home: _home,
        cwd: _cwd,
        stateDir: _state,
        resume: _resume,
        before: _before,
        ...ref
      } = record;
      await hooks.onRecord?.({ ...ref, model, cliSession: summary?.session ?? null, usage }).catch(() => undefined);
      settled++;
    }
    rmSync(runDir, { recursive: true, force: true });
  }
  return settled;
}

/** The record of a run in its directory, null when there is none (or it is not one). */
export function readRuntimeRecord(runDir: string): RuntimeRecordFile | null {
  try {
    const value = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8')) as RuntimeRecordFile;
    return typeof value.taskId === 'string' && typeof value.rawPath === 'string' ? value : null;
  } catch {
    return null;
  }
}
