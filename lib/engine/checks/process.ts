import { spawn } from 'node:child_process';
import { signalMarkedProcesses } from '../../fs/process-marker.js';
import type { RunLog } from './log.js';

/** The environment variable every process of a check carries: the check run's marker. */
export const CHECK_MARKER = 'SVC_CHECK_RUN';

/** How long a check may take past its timeout at most: the kill grace, then the output's drain. */
export const CHECK_END_MS = 2000 + 500;

/** One check to run. */
export interface CheckCommand {
  argv: readonly string[];
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  log: RunLog;
  /** This run's marker (`SVC_CHECK_RUN`): what finds its processes that left its process group. */
  marker: string;
  /** Called with the process group once it runs (recorded so a restarted daemon can end it). */
  onStart?: (pgid: number) => void;
  /** How long after SIGTERM (timeout, abort) before SIGKILL (2 s). */
  killGraceMs?: number;
}

/** How the process ended. */
export interface CheckExit {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
}

/** A running check: `ended` settles once its process exited and its processes are ended; `abort` ends them. */
export interface RunningCheck {
  ended: Promise<CheckExit>;
  abort(): void;
}

/**
 * Runs a check in its own process group, stdout and stderr into its run log, every process marked
 * `SVC_CHECK_RUN=<marker>`. At `timeoutMs` (or on `abort`) the group and every marked process get
 * SIGTERM, then SIGKILL after the grace: a check that hangs ends and counts as failed. Once its
 * process exited, whatever it left (in its group, or marked outside it after a `setsid`) is killed
 * and the run ends: the output is read a little longer, never waited for.
 */
export function runCheckProcess(command: CheckCommand): RunningCheck {
  const started = Date.now();
  let timedOut = false;
  let aborted = false;
  let killTimer: NodeJS.Timeout | undefined;
  const env = { ...command.env, [CHECK_MARKER]: command.marker };
  const child = spawn(command.argv[0]!, command.argv.slice(1), {
    cwd: command.cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const end = (signal: NodeJS.Signals) => {
    if (child.pid) signalGroup(child.pid, signal);
    signalMarkedProcesses(CHECK_MARKER, command.marker, { signal, signalledGroup: child.pid });
  };
  const stop = () => {
    if (!child.pid || killTimer) return;
    end('SIGTERM');
    killTimer = setTimeout(() => end('SIGKILL'), command.killGraceMs ?? KILL_GRACE_MS);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, command.timeoutMs);
  child.stdout.on('data', (chunk: Buffer) => command.log.write(chunk));
  child.stderr.on('data', (chunk: Buffer) => command.log.write(chunk));
  const ended = new Promise<CheckExit>((resolve) => {
    let done = false;
    const finish = (exitCode: number | null, signal: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      resolve({ exitCode, signal, timedOut, aborted, durationMs: Date.now() - started });
    };
    child.once('error', (err) => {
      command.log.write(Buffer.from(`cannot run ${command.argv[0]}: ${err.message}\n`));
      finish(null, null);
    });
    child.once('spawn', () => command.onStart?.(child.pid!));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      end('SIGKILL'); // nothing of the check outlives it
      // What ignored the marker could hold the output open: read what is buffered, then stop.
      const drain = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code, signal);
      }, DRAIN_MS);
      child.once('close', () => {
        clearTimeout(drain);
        finish(code, signal);
      });
    });
  });
  const abort = () => {
    aborted = true;
    stop();
  };
  return { ended, abort };
}

/** Sends a signal to a process group; a group already gone is fine. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone already
  }
}

// --- internal ---

/** The default time between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2000;

/** How long the output is read after the check's process exited and what it left was killed. */
const DRAIN_MS = CHECK_END_MS - KILL_GRACE_MS;
