import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestDaemon } from '../lib/daemon/instance/client.js';
import { DAEMON_NODE_FLAGS } from '../lib/daemon/service-file.js';
import { toPaths } from '../lib/store/disk/paths.js';
import { createStore } from '../lib/store/commit/store.js';
import { threadCpuMs } from './cpu-time.js';
import { inParallel, timeMs, until } from './measure.js';

/** One measured stretch of tool calls: calls/s, and what each cost the daemon. */
export interface Measured {
  rate: number;
  /** CPU time of the daemon's process (every thread) a call, ms. */
  cpuMs: number;
  /** CPU time of its main thread (the event loop) a call, ms. */
  loopMs: number;
  /** Directory fsyncs the daemon made a call (`svc_dir_fsyncs_total`). */
  syncs: number;
}

/** A built daemon to call tools on, for the store section's rows through the socket. */
export interface CallDaemon {
  /** `svc_dispatch` calls (no route: each lands in backlog), `width` at a time. */
  dispatch(ops: number, width: number): Promise<Measured>;
  /** `svc_task_block` and `svc_task_unblock` alternating, one task per lane, `width` lanes. */
  block(ops: number, width: number): Promise<Measured>;
  stop(): Promise<void>;
}

/**
 * Starts `bin/svc.js daemon run` (the service's node flags) on a fresh tree under `root`, with 16
 * backlog tasks written before it starts (the lanes of `block`): its first measured call is its
 * first call at all, so a daemon measured right after this is cold.
 */
export async function startCallDaemon(root: string, repo: string): Promise<CallDaemon> {
  mkdirSync(root, { recursive: true });
  const paths = toPaths(root);
  const store = createStore({ root });
  const lanes: string[] = [];
  for (let i = 0; i < 16; i++)
    lanes.push(
      (await store.create({ title: `Blocked ${i}`, body: 'Blocked and unblocked.', createdBy: 'bench' })).task.id,
    );
  const child = spawn(
    process.execPath,
    [
      ...DAEMON_NODE_FLAGS,
      ...(process.env.SVC_BENCH_DAEMON_FLAGS ?? '').split(' ').filter(Boolean),
      join(repo, 'bin/svc.js'),
      'daemon',
      'run',
    ],
    { env: { ...process.env, SVC_HOME: root, DEBUG: '' }, stdio: 'ignore' },
  );
  const pid = child.pid!;
  const call = async (tool: string, params: object): Promise<void> => {
    const { status, body } = await requestDaemon(
      paths.socket,
      { method: 'POST', path: '/v1/tool/invoke', body: { tool, params } },
      { keepAlive: true },
    );
    if (status !== 200) throw new Error(`bench: ${tool} failed: ${JSON.stringify(body)}`);
  };
  const dirSyncs = async (): Promise<number> => {
    const { body } = await requestDaemon(paths.socket, { method: 'GET', path: '/metrics' });
    return Number(/^svc_dir_fsyncs_total (\d+)/m.exec(String(body))?.[1] ?? Number.NaN);
  };
  const measure = async (ops: number, calls: () => Promise<void>): Promise<Measured> => {
    const syncs = await dirSyncs();
    const cpu = threadCpuMs(pid);
    const ms = await timeMs(calls);
    const after = threadCpuMs(pid);
    return {
      rate: (ops * 1000) / ms,
      cpuMs: (after.process - cpu.process) / ops,
      loopMs: (after.main - cpu.main) / ops,
      syncs: ((await dirSyncs()) - syncs) / ops,
    };
  };
  await until(
    async () =>
      (await requestDaemon(paths.socket, { method: 'GET', path: '/healthz' })).status === 200 &&
      readPid(paths.pidFile) === pid,
    60_000,
  );
  let calls = 0;
  return {
    dispatch: (ops, width) =>
      measure(ops, () =>
        inParallel(ops, width, () => call('svc_dispatch', { title: `Bench ${calls++}`, brief: 'Measure me.' })),
      ),
    async block(ops, width) {
      // Lane k moves lanes[k]: block, unblock, block, ... (each a durable transition).
      const blocked = new Set<string>();
      const measured = await measure(ops, () =>
        inParallel(ops, width, async (i) => {
          const taskId = lanes[i % width]!;
          if (blocked.delete(taskId)) return call('svc_task_unblock', { taskId });
          blocked.add(taskId);
          return call('svc_task_block', { taskId, reason: 'bench' });
        }),
      );
      await Promise.all([...blocked].map((taskId) => call('svc_task_unblock', { taskId })));
      return measured;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

// --- internal ---

function readPid(file: string): number | null {
  try {
    return Number(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
