import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** How often the reader of a piped stdout is looked for. */
const LOOK_MS = 1000;

/**
 * Calls `onGone` once nothing reads this process's stdout pipe any more (`svc board --watch | head`
 * after `head` exits), without writing to it: a command that prints only on change would otherwise
 * learn it from its next write, which may never come. Linux only (it reads `/proc`), and only for an
 * anonymous pipe: it looks every second for a process of this session holding the pipe open for
 * reading, and calls `onGone` only when it could look into every one of them and found none (a
 * reader it may not inspect, such as `| sudo tee`, keeps the command running). Returns the stop.
 */
export function watchStdoutReader(onGone: () => void): () => void {
  const pipe = readPipe();
  if (pipe === null) return () => undefined;
  const timer = setInterval(() => {
    if (hasReader(pipe) !== false) return;
    clearInterval(timer);
    onGone();
  }, LOOK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

// --- internal ---

interface Pipe {
  link: string;
  session: string;
}

function readPipe(): Pipe | null {
  if (process.platform !== 'linux') return null;
  try {
    const link = readlinkSync('/proc/self/fd/1');
    return /^pipe:\[\d+\]$/.test(link) ? { link, session: toSession('self')! } : null;
  } catch {
    return null;
  }
}

/** True when a process of the session reads the pipe, false when none does, null when one could not be inspected. */
function hasReader(pipe: Pipe): boolean | null {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name) && name !== String(process.pid))) {
    if (toSession(pid) !== pipe.session) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // it exited meanwhile
      return null;
    }
    for (const fd of fds) if (isReaderOf(pipe, pid, fd)) return true;
  }
  return false;
}

function isReaderOf(pipe: Pipe, pid: string, fd: string): boolean {
  try {
    if (readlinkSync(`/proc/${pid}/fd/${fd}`) !== pipe.link) return false;
    const flags = /^flags:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))?.[1];
    return flags === undefined || (Number.parseInt(flags, 8) & 3) !== 1; // O_RDONLY or O_RDWR
  } catch {
    return false; // closed meanwhile
  }
}

/** The session id of a process (`/proc/<pid>/stat`, the fourth field after the name), or null. */
function toSession(pid: string): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3] ?? null;
  } catch {
    return null;
  }
}
