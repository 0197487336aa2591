import { readProcessEnv, readProcessStat } from '../fs/process.js';
import { readRunRecords } from './runs.js';

/** A local agent run as far as telling its processes apart goes: its task, session and leader. */
export interface RunProcess {
  taskId: string;
  sessionId: string;
  /** The leader: the run was started detached, so it leads its own process group and Unix session. */
  pid: number;
  /** The leader's start time, so a recycled pid is not taken for it; null where unknown. */
  startTime?: number | null;
}

/** How far up the parent chain a process is followed (a shell, an agent's tool runner, `svc`, ...). */
const MAX_DEPTH = 64;

/**
 * The run a process belongs to, or null (Linux `/proc`; elsewhere always null): a process in the
 * run's process group or Unix session, one descended from its leader, or one whose environment
 * names its session. A process that left all four (a new session, reparented, its environment
 * scrubbed) is not found: only a sandbox around the run keeps it from that (docs/approvals-and-logs.md).
 */
export function findRunOf(pid: number, runs: readonly RunProcess[]): RunProcess | null {
  const live = runs.filter(
    (run) => !run.startTime || (readProcessStat(run.pid)?.startTime ?? run.startTime) === run.startTime,
  );
  if (!live.length) return null;
  const byLeader = new Map(live.map((run) => [run.pid, run]));
  const bySession = new Map(live.map((run) => [run.sessionId, run]));
  const named = readProcessEnv(pid)?.SVC_SESSION_ID;
  if (named !== undefined && bySession.has(named)) return bySession.get(named)!;
  let current = pid;
  for (let depth = 0; depth < MAX_DEPTH && current > 1; depth++) {
    const stat = readProcessStat(current);
    if (!stat) return null;
    const found = byLeader.get(stat.pid) ?? byLeader.get(stat.pgrp) ?? byLeader.get(stat.sid);
    if (found) return found;
    current = stat.ppid;
  }
  return null;
}

/**
 * The run recorded in `data/runs/` that a process belongs to (for a command run with no daemon up): only runs whose
 * leader still lives count.
 */
export function findRecordedRunOf(pid: number, runsDir: string): RunProcess | null {
  const live = readRunRecords(runsDir).filter((run) => {
    const leader = readProcessStat(run.pid);
    return leader !== null && (run.startTime === null || leader.startTime === run.startTime);
  });
  return findRunOf(pid, live);
}
