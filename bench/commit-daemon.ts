import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestDaemon } from '../lib/daemon/instance/client.js';
import { DAEMON_NODE_FLAGS } from '../lib/daemon/service-file.js';
import { toPaths } from '../lib/store/disk/paths.js';
import { initTree } from '../lib/store/commit/store.js';
import { inParallel, timeMs, until } from './measure.js';

/** A built daemon to call tools on, for the store section's rows through the socket. */
export interface CallDaemon {
  /** `svc_dispatch` calls (no route: each lands in backlog), `width` at a time, calls/s. */
  dispatchRate(ops: number, width: number): Promise<number>;
  /** `svc_task_block` and `svc_task_unblock` alternating, one task per lane, `width` lanes, calls/s. */
  blockRate(ops: number, width: number): Promise<number>;
  stop(): Promise<void>;
}

/** Starts `bin/svc.js daemon run` (the service's node flags) on a fresh tree under `root`. */
export async function startCallDaemon(root: string, repo: string): Promise<CallDaemon> {
  mkdirSync(root, { recursive: true });
  const paths = toPaths(root);
  await initTree(paths);
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
  const call = async (tool: string, params: object): Promise<Record<string, unknown>> => {
    const { status, body } = await requestDaemon(paths.socket, {
      method: 'POST',
      path: '/v1/tool/invoke',
      body: { tool, params },
    });
    if (status !== 200) throw new Error(`bench: ${tool} failed: ${JSON.stringify(body)}`);
    return ((body as { result?: Record<string, unknown> }).result ?? body) as Record<string, unknown>;
  };
  await until(
    async () =>
      (await requestDaemon(paths.socket, { method: 'GET', path: '/healthz' })).status === 200 &&
      readPid(paths.pidFile) === child.pid,
    60_000,
  );
  const lanes: string[] = [];
  for (let i = 0; i < 16; i++)
    lanes.push(String((await call('svc_dispatch', { title: `Blocked ${i}`, brief: 'Blocked and unblocked.' })).taskId));
  let calls = 0;
  return {
    async dispatchRate(ops, width) {
      const ms = await timeMs(() =>
        inParallel(ops, width, () => call('svc_dispatch', { title: `Bench ${calls++}`, brief: 'Measure me.' })),
      );
      return (ops * 1000) / ms;
    },
    async blockRate(ops, width) {
      // Lane k moves lanes[k]: block, unblock, block, ... (each a durable transition).
      const blocked = new Set<string>();
      const ms = await timeMs(() =>
        inParallel(ops, width, async (i) => {
          const taskId = lanes[i % width]!;
          if (blocked.delete(taskId)) return call('svc_task_unblock', { taskId });
          blocked.add(taskId);
          return call('svc_task_block', { taskId, reason: 'bench' });
        }),
      );
      await Promise.all([...blocked].map((taskId) => call('svc_task_unblock', { taskId })));
      return (ops * 1000) / ms;
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
