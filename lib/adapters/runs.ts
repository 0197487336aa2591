import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listProcessGroups, readProcessStat } from '../fs/process.js';
import { removeBriefFile, removeStaleBriefs } from './brief-file.js';
import { isRunAlive, signalRun } from './run-processes.js';

/** One local agent run: its task, session, process group leader and that leader's start time. */
export interface Run {
  taskId: string;
  sessionId: string;
  pid: number;
  /** Start time of the leader (`/proc/<pid>/stat`), so a recycled pid is not taken for it; null where unknown. */
  startTime: number | null;
  /**
   * `running`: our child, its exit is reported; `watched`: polled (an earlier daemon's, or members left after the
   * leader exited); `ending`: signalled.
   */
  state: 'running' | 'watched' | 'ending';
  /** When SIGKILL is due (while ending). */
  killAt?: number;
  killed?: boolean;
  /** Recorded by an earlier daemon (its exit status is unknown here). */
  adopted?: boolean;
  /** The leader, started here, exited: what is left are processes it left behind. */
  leaderExited?: boolean;
}

/** Which runs of a task `end` leaves alone. */
export interface RunEndOptions {
  /** The session of the task's current lease. */
  keep?: string | undefined;
  /** Runs given time to exit by themselves (they handed their task on). */
  spare?: ((run: Run) => boolean) | undefined;
}

/** Options of `createRunRegistry`. */
export interface RunRegistryOptions {
  /** `data/runs/`: one record `<task id>@<session>` holding `<pid> <start time>` per run. None when absent. */
  dir?: string | undefined;
  /** `data/briefs/`: the brief of each run (`<task id>@<session>`), removed once the run is gone. */
  briefsDir?: string | undefined;
  /** How long a run gets after SIGTERM before SIGKILL (`agentStopGraceMs`). */
  stopGraceMs: () => number;
  /** The last run of a task is confirmed gone (its process group has no member left). */
  onGone?: (run: Run) => void;
  /** How often runs being ended are looked at (100 ms); others every 10 such periods. */
  checkMs?: number;
  now?: () => number;
}

/** The local agent runs of this host (docs/architecture.md, "Adapters"). */
export type RunRegistry = ReturnType<typeof createRunRegistry>;

/**
 * Keeps every local agent run until its process group is confirmed gone: records it in `data/runs/`,
 * ends runs (SIGTERM to the group, SIGKILL after the grace period) and polls `/proc` while any run
 * is ended or watched. A process counts as the run's only while it is the leader with the recorded
 * start time, or a member of its group whose environment names the run's session, or any process
 * whose environment names it (one that left the group: `setsid`, a double fork); each is signalled.
 */
export function createRunRegistry(options: RunRegistryOptions) {
  const runs = new Set<Run>();
  const now = options.now ?? Date.now;
  const checkMs = options.checkMs ?? 100;
  let timer: NodeJS.Timeout | null = null;
  let ticks = 0;

  function forget(run: Run): void {
    runs.delete(run);
    removeRecord(options.dir, run);
    if (options.briefsDir) removeBriefFile(options.briefsDir, run.taskId, run.sessionId);
    options.onGone?.(run);
    arm();
  }

  function check(): void {
    const all = ++ticks % 10 === 0;
    const due = [...runs].filter((run) => run.state === 'ending' || (all && run.state === 'watched'));
    if (!due.length) return;
    const groups = listProcessGroups();
    for (const run of due) {
      if (!isRunAlive(run, groups)) forget(run);
      else if (run.state === 'ending' && !run.killed && now() >= (run.killAt ?? Infinity)) {
        run.killed = true;
        signalRun(run, 'SIGKILL');
      }
    }
  }

  function arm(): void {
    const wanted = [...runs].some((run) => run.state !== 'running');
    if (wanted && !timer) {
      timer = setInterval(check, checkMs);
      timer.unref();
    } else if (!wanted && timer) {
      clearInterval(timer);
      timer = null;
    }
  }

  return {
    /** Records a run this process started (its child). */
    add(taskId: string, sessionId: string, pid: number): Run {
      const run: Run = { taskId, sessionId, pid, startTime: readProcessStat(pid)?.startTime ?? null, state: 'running' };
      runs.add(run);
      writeRecord(options.dir, run);
      return run;
    },
    /** The leader of a run this process started exited: the run is gone unless members of its group remain. */
    exited(run: Run): void {
      if (!runs.has(run)) return;
      if (!isRunAlive(run, listProcessGroups())) return forget(run);
      if (run.state === 'running') run.state = 'watched';
      run.leaderExited = true;
      arm();
    },
    /** Runs of `taskId` not yet confirmed gone. */
    of: (taskId: string): Run[] => [...runs].filter((run) => run.taskId === taskId),
    /** Every run not yet confirmed gone. */
    all: (): Run[] => [...runs],
    /**
     * Starts ending the runs of `taskId` (all but `keep`, a session, and those `spare` names); returns those now being
     * ended.
     */
    end(taskId: string, which: RunEndOptions = {}): Run[] {
      const ending: Run[] = [];
      for (const run of runs) {
        if (run.taskId !== taskId || run.sessionId === which.keep) continue;
        if (run.state !== 'ending' && which.spare?.(run)) continue;
        if (run.state !== 'ending') {
          if (run.state !== 'running' && !isRunAlive(run, listProcessGroups())) {
            forget(run);
            continue;
          }
          Object.assign(run, { state: 'ending', killAt: now() + options.stopGraceMs(), killed: false });
          signalRun(run, 'SIGTERM');
        }
        ending.push(run);
      }
      arm();
      return ending;
    },
    /**
     * Takes over the runs an earlier daemon recorded: one still alive is watched from now on; the
     * record of one whose processes are gone is removed. Returns both, for the caller to settle.
     */
    adopt(): { alive: Run[]; gone: Run[] } {
      const groups = listProcessGroups();
      const found = { alive: [] as Run[], gone: [] as Run[] };
      for (const run of readRunRecords(options.dir)) {
        if (isRunAlive(run, groups)) {
          runs.add(run);
          found.alive.push(run);
        } else {
          removeRecord(options.dir, run);
          found.gone.push(run);
        }
      }
      if (options.briefsDir)
        removeStaleBriefs(options.briefsDir, new Set([...runs].map((run) => `${run.taskId}@${run.sessionId}`)));
      arm();
      return found;
    },
    /** Sends the pending SIGKILLs at once and stops polling; every other run goes on. */
    close(): void {
      for (const run of runs) if (run.state === 'ending' && !run.killed) signalRun(run, 'SIGKILL');
      if (timer) clearInterval(timer);
      timer = null;
    },
    /** Kills every run at once (tests). */
    killAll(): void {
      for (const run of runs) signalRun(run, 'SIGKILL');
    },
  };
}

/**
 * The runs recorded in `data/runs/` (`<task id>@<session>` holding `<pid>[ <start time>]`; an older daemon wrote the
 * pid alone).
 */
export function readRunRecords(dir: string | undefined): Run[] {
  let names: string[];
  try {
    names = dir ? readdirSync(dir) : [];
  } catch {
    return [];
  }
  const found: Run[] = [];
  for (const name of names) {
    const at = name.indexOf('@');
    const [pid, startTime] = readText(join(dir!, name)).trim().split(' ').map(Number);
    if (at <= 0 || !Number.isSafeInteger(pid) || pid! <= 0) continue;
    found.push({
      taskId: name.slice(0, at),
      sessionId: name.slice(at + 1),
      pid: pid!,
      startTime: Number.isSafeInteger(startTime) ? startTime! : null,
      state: 'watched',
      adopted: true,
    });
  }
  return found;
}

// --- internal ---

function writeRecord(dir: string | undefined, run: Run): void {
  if (!dir) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, `${run.taskId}@${run.sessionId}`),
      `${run.pid}${run.startTime === null ? '' : ` ${run.startTime}`}\n`,
    );
  } catch {
    // a record is what a restarted daemon finds the run by; the run goes on without one
  }
}

function removeRecord(dir: string | undefined, run: Run): void {
  if (!dir) return;
  try {
    unlinkSync(join(dir, `${run.taskId}@${run.sessionId}`));
  } catch {
    // already gone
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
