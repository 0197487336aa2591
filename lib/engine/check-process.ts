import { spawn } from 'node:child_process';
import type { RunLog } from './check-log.js';

/** One check to run. */
export interface CheckCommand {
  argv: readonly string[];
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  log: RunLog;
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

/** A running check: `ended` settles once its output is closed; `abort` ends its process group. */
export interface RunningCheck {
  ended: Promise<CheckExit>;
  abort(): void;
}

/**
 * Runs a check in its own process group, stdout and stderr into its run log. At `timeoutMs` (or on
 * `abort`) the whole group gets SIGTERM, then SIGKILL after the grace: a check that hangs, or left
 * children behind, ends and counts as failed.
 */
export function runCheckProcess(command: CheckCommand): RunningCheck {
  const started = Date.now();
  let timedOut = false;
  let aborted = false;
  let killTimer: NodeJS.Timeout | undefined;
  const child = spawn(command.argv[0]!, command.argv.slice(1), { cwd: command.cwd, env: command.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = () => {
    if (!child.pid || killTimer) return;
    signalGroup(child.pid, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), command.killGraceMs ?? 2000);
  };
  const timer = setTimeout(() => ((timedOut = true), stop()), command.timeoutMs);
  child.stdout.on('data', (chunk: Buffer) => command.log.write(chunk));
  child.stderr.on('data', (chunk: Buffer) => command.log.write(chunk));
  const ended = new Promise<CheckExit>((resolve) => {
    child.once('error', (err) => {
      command.log.write(Buffer.from(`cannot run ${command.argv[0]}: ${err.message}\n`));
      clearTimeout(timer);
      resolve({ exitCode: null, signal: null, timedOut: false, aborted, durationMs: Date.now() - started });
    });
    child.once('spawn', () => command.onStart?.(child.pid!));
    child.once('exit', () => child.pid && signalGroup(child.pid, 'SIGKILL')); // what it left behind would hold its output open
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (child.pid) signalGroup(child.pid, 'SIGKILL'); // nothing of the check outlives it
      clearTimeout(killTimer);
      resolve({ exitCode: code, signal, timedOut, aborted, durationMs: Date.now() - started });
    });
  });
  return { ended, abort: () => ((aborted = true), stop()) };
}

/** Sends a signal to a process group; a group already gone is fine. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone already
  }
}
