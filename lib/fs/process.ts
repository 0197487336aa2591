import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { hasCode } from '../core/errors.js';

/**
 * True when a process with this pid exists and has not exited. `kill(pid, 0)` alone is not
 * enough: a process that exited but was not reaped (a zombie, common where PID 1 does not reap,
 * as in many containers) still answers it, so on Linux `/proc/<pid>/stat` is read too.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (!hasCode(err, 'EPERM')) return false;
  }
  return !isZombie(pid);
}

/** True for a process that has exited but is not reaped yet (Linux `/proc`; elsewhere false). */
export function isZombie(pid: number): boolean {
  try {
    return /^\d+ \(.*\) [ZX]/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** What `/proc` says about a process: its argv, and its environment and working directory when readable (same user). */
export interface ProcessInfo {
  argv: string[];
  env: Record<string, string> | null;
  cwd: string | null;
}

/**
 * Reads argv, environment and working directory of `pid` from `/proc` (Linux); null when it is gone, a zombie, or there
 * is no `/proc`.
 */
export function readProcessInfo(pid: number): ProcessInfo | null {
  let argv: string[];
  try {
    argv = splitNul(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return null;
  }
  if (argv.length === 0) return null; // a zombie or a kernel thread
  return { argv, env: readEnviron(pid), cwd: readLinkOrNull(`/proc/${pid}/cwd`) };
}

/**
 * The values of environment variable `name` among the live processes of this user (Linux `/proc`;
 * an empty set elsewhere). Used once at a daemon start, to tell which agent sessions still run.
 */
export function findEnvValues(name: string): Set<string> {
  const found = new Set<string>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return found;
  }
  const key = `${name}=`;
  for (const pid of pids) {
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue; // gone, or another user's
    }
    for (const pair of environ.split('\0')) if (pair.startsWith(key)) found.add(pair.slice(key.length));
  }
  return found;
}

/**
 * A live process as `/proc/<pid>/stat` shows it: its parent, process group, Unix session and start time (clock ticks
 * since boot).
 */
export interface ProcessStat {
  pid: number;
  ppid: number;
  pgrp: number;
  sid: number;
  startTime: number;
}

/** `/proc/<pid>/stat` of a live process (null when it is gone, a zombie, or there is no `/proc`). */
export function readProcessStat(pid: number): ProcessStat | null {
  try {
    return parseStat(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** Every live process of this host by process group (Linux `/proc`; null where there is none). Zombies are left out. */
export function listProcessGroups(): Map<number, ProcessStat[]> | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  const groups = new Map<number, ProcessStat[]>();
  for (const pid of pids) {
    const stat = readProcessStat(Number(pid));
    if (stat) groups.set(stat.pgrp, [...(groups.get(stat.pgrp) ?? []), stat]);
  }
  return groups;
}

/** The environment of `pid` (same user, Linux `/proc`); null when unreadable. */
export function readProcessEnv(pid: number): Record<string, string> | null {
  return readEnviron(pid);
}

/** True when this platform exposes processes under `/proc` (Linux). */
export function hasProcFs(): boolean {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
}

// --- internal ---

function readEnviron(pid: number): Record<string, string> | null {
  try {
    const env: Record<string, string> = {};
    for (const pair of splitNul(readFileSync(`/proc/${pid}/environ`, 'utf8'))) {
      const at = pair.indexOf('=');
      if (at > 0) env[pair.slice(0, at)] = pair.slice(at + 1);
    }
    return env;
  } catch {
    return null;
  }
}

/**
 * Fields after the command name (which may hold spaces and parentheses): state is the 3rd, ppid the 4th, pgrp the 5th,
 * session the 6th, starttime the 22nd.
 */
function parseStat(pid: number, text: string): ProcessStat | null {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return null;
  const [ppid, pgrp, sid, startTime] = [fields[1], fields[2], fields[3], fields[19]].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  return [ppid, pgrp, sid, startTime].every(Number.isSafeInteger) ? { pid, ppid, pgrp, sid, startTime } : null;
}

function readLinkOrNull(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

function splitNul(text: string): string[] {
  return text.split('\0').filter((part) => part.length > 0);
}
