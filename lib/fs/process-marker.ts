import { readdirSync, readFileSync } from 'node:fs';
import { readProcessStat } from './process.js';

/**
 * The live processes of this user whose environment holds `name=value` (Linux `/proc`; none
 * elsewhere), this process left out. A run's processes carry such a marker, so those that left
 * its process group (`setsid`, a double fork) are still found.
 */
export function findMarkedProcesses(name: string, value: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  const wanted = `${name}=${value}`;
  const found: number[] = [];
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1'); // empty for a zombie: nothing left to end
    } catch {
      continue; // gone, or another user's
    }
    if (environ.split('\0').includes(wanted)) found.push(Number(pid));
  }
  return found;
}

/**
 * Sends `how.signal` to every process marked `name=value`, but those in process group `how.signalledGroup`
 * (the run's own, signalled as a group: none gets the signal twice). SIGKILL is sent again while
 * a scan still finds one (a process forked between a scan and its signal), a few rounds at most.
 * Returns the pids signalled.
 */
export function signalMarkedProcesses(
  name: string,
  value: string,
  how: { signal: NodeJS.Signals; signalledGroup?: number },
): number[] {
  const { signal, signalledGroup } = how;
  const signalled = new Set<number>();
  for (let round = 0; round < (signal === 'SIGKILL' ? MAX_ROUNDS : 1); round++) {
    const found = findMarkedProcesses(name, value).filter(
      (pid) => signalledGroup === undefined || readProcessStat(pid)?.pgrp !== signalledGroup,
    );
    if (!found.length) break;
    for (const pid of found) {
      try {
        process.kill(pid, signal);
        signalled.add(pid);
      } catch {
        // gone meanwhile
      }
    }
  }
  return [...signalled];
}

// --- internal ---

/** Rounds of SIGKILL: each ends what the previous scan found, and whatever those forked before they died. */
const MAX_ROUNDS = 5;
