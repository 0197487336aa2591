import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Job } from './worker.js';
import { within } from './root.js';

const script = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** A running worker process: the lines it printed so far, and how it ended. */
export interface WorkerHandle {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Lets a gated worker begin its work. */
  go(): void;
  /** Waits until the worker printed a line matching `pattern`. */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  /** SIGKILLs the worker (if still running) and waits for it to be gone. */
  kill(): Promise<void>;
}

const running = new Set<WorkerHandle>();

/** Starts `test/helpers/worker.ts` on a job in a real child process. */
export function startWorker(job: Job): WorkerHandle {
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(job)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  const handle: WorkerHandle = {
    child,
    lines,
    exited,
    stderr: () => err,
    go: () => child.stdin!.write('go\n'),
    async waitFor(pattern, ms = 20_000) {
      const found = await within(
        ms,
        () =>
          lines.find((line) => pattern.test(line)) ??
          (child.exitCode !== null && Promise.reject(new Error(err.slice(-1000)))),
        `a worker line matching ${pattern}`,
      );
      return found as string;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      running.delete(handle);
    },
  };
  running.add(handle);
  void exited.then(() => running.delete(handle));
  return handle;
}

/** Runs a worker to its end; fails when it exits non-zero. */
export async function runWorker(job: Job): Promise<string[]> {
  const handle = startWorker(job);
  const { code, signal } = await handle.exited;
  if (code !== 0) throw new Error(`worker ${job.op} exited with ${code ?? signal}: ${handle.stderr().slice(-2000)}`);
  return handle.lines;
}

/** Kills every worker still running (for `after.each`). */
export async function killWorkers(): Promise<void> {
  await Promise.all([...running].map((handle) => handle.kill()));
}
