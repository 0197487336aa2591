import { readFileSync, readdirSync } from 'node:fs';

/**
 * CPU time a process has run so far, ms, from Linux's per-thread scheduler statistics
 * (`/proc/<pid>/task/<tid>/schedstat`, nanoseconds on a CPU): `process` sums every thread (the
 * event loop, the thread pool's fsyncs and file calls, V8's compiler and garbage collector),
 * `main` is the main thread alone, the event loop a daemon's requests wait on. A thread that
 * ended between two readings drops out of the sum, so a difference can only err low by what
 * such a thread ran; a daemon's threads live as long as it does.
 */
export function threadCpuMs(pid: number): { process: number; main: number } {
  let process = 0;
  let main = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let ns: number;
    try {
      ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      continue; // the thread ended meanwhile
    }
    process += ns;
    if (tid === String(pid)) main = ns;
  }
  return { process: process / 1e6, main: main / 1e6 };
}
