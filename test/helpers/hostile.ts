import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { HostilePlan } from './hostile-client.js';
import { within } from './root.js';

const script = fileURLToPath(new URL('./hostile-client.ts', import.meta.url));

/** What a hostile client reports: connections open now, opened and closed so far, answers by status. */
export interface HostileStats {
  open: number;
  opened: number;
  closed: number;
  statuses: Record<string, number>;
  retryAfter: number;
}

/** A running hostile client (`hostile-client.ts` in a child process). */
export interface Hostile {
  stats(): HostileStats;
  /** Waits until the stats satisfy `test` (bounded), naming `what` on timeout. */
  until(test: (stats: HostileStats) => boolean, what: string, ms?: number): Promise<HostileStats>;
  kill(): Promise<void>;
}

const running = new Set<Hostile>();

/** Starts a hostile client on `plan`; `killHostiles` ends every one. */
export function startHostile(plan: HostilePlan): Hostile {
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(plan)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let last: HostileStats = { open: 0, opened: 0, closed: 0, statuses: {}, retryAfter: 0 };
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    if (lines.length) last = JSON.parse(lines.at(-1)!) as HostileStats;
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const hostile: Hostile = {
    stats: () => last,
    async until(test, what, ms = 45_000) {
      // the stats at the end, not at the call, are what a failure reports
      const ended = () => child.exitCode !== null || child.signalCode !== null;
      const seen = await within(ms, () => (test(last) || ended() ? last : null), what).catch((err: Error) => {
        throw new Error(`${err.message} (last: ${JSON.stringify(last)})`);
      });
      if (!test(seen))
        throw new Error(
          `the hostile client ended (${child.exitCode ?? child.signalCode}) before ${what} (last: ${JSON.stringify(seen)})`,
        );
      return seen;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      running.delete(hostile);
    },
  };
  running.add(hostile);
  return hostile;
}

/** Kills every hostile client still running. */
export async function killHostiles(): Promise<void> {
  await Promise.all([...running].map((hostile) => hostile.kill()));
}
