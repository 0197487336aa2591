import { findMarkedProcesses, signalMarkedProcesses } from '../fs/process-marker.js';
import { isProcessAlive, readProcessEnv, readProcessStat, type ProcessStat } from '../fs/process.js';

/** What finds a run's processes (a `Run` of runs.ts): its leader, the leader's start time, its session. */
export interface RunProcesses {
  pid: number;
  startTime: number | null;
  sessionId: string;
}

/**
 * Whether a run still has a process: its leader with the recorded start time, a member of its group marked with its
 * session, or any process so marked.
 */
export function isRunAlive(run: RunProcesses, groups: Map<number, ProcessStat[]> | null): boolean {
  if (!groups) return isProcessAlive(run.pid); // no /proc: the leader alone
  const leader = readProcessStat(run.pid);
  // The leader with its start time is the run; a recycled pid means the group is gone (a pid is not reused while its
  // group lives).
  if (leader && run.startTime !== null && leader.startTime === run.startTime) return true;
  const member =
    !(leader && run.startTime !== null) &&
    (groups.get(run.pid) ?? []).some((stat) => readProcessEnv(stat.pid)?.[RUN_MARKER] === run.sessionId);
  return member || findMarkedProcesses(RUN_MARKER, run.sessionId).length > 0;
}

/** Whether any process still carries the marker of the run of `sessionId` (one started, not yet registered). */
export function hasRunProcesses(sessionId: string): boolean {
  return findMarkedProcesses(RUN_MARKER, sessionId).length > 0;
}

/** The run's process group (it was started detached) and every process marked with its session. */
export function signalRun(run: RunProcesses, signal: NodeJS.Signals): void {
  signalGroup(run.pid, signal);
  signalMarkedProcesses(RUN_MARKER, run.sessionId, { signal, signalledGroup: run.pid });
}

// --- internal ---

/** The variable every process of a run carries (`SVC_SESSION_ID`): what finds those that left its group. */
const RUN_MARKER = 'SVC_SESSION_ID';

/** SIGTERM/SIGKILL to a process group, or to the leader alone where it has none; nothing there is fine. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // gone
    }
  }
}
