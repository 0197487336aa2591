// CPU affinity for the web section's latency rounds (web-latency.ts): the boards on one CPU, the
// daemon on the others, so the daemon's own cost of open boards is measured apart from the
// browser's drawing (an operator's browser runs on the operator's machine, not beside the daemon).
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** The CPUs of each side, or null where they cannot be split (one CPU, or no `taskset`). */
export function cpuSplit(): { browser: string; daemon: string; all: string } | null {
  const cpus = availableParallelism();
  if (cpus < 2) return null;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const last = cpus - 1;
  return { browser: String(last), daemon: last === 1 ? '0' : `0-${last - 1}`, all: `0-${last}` };
}

/** Runs this process (every thread, and the children it starts meanwhile) on `cpus`. */
export function pinSelf(cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
}
