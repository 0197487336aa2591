import { join } from 'node:path';
import { requestDaemon } from '../lib/daemon/instance/client.js';
import { startDaemon } from '../lib/daemon/daemon.js';
import { TOOLS } from '../lib/tools/index.js';
import { dispatchLatency, writeOrgChart, type Latency } from './dispatch-latency.js';
import { formatNumber, type BenchOptions, type Row } from './measure.js';
import { rawRate } from './store.js';

/**
 * The scheduler section: dispatch latency (a file renamed into ready/ -> the spawn reaching the
 * standalone adapter's gateway) with 10,000 tasks in the tree, in two sequences, and full lifecycles
 * per second through the daemon (svc_dispatch -> dispatch -> a plugin's agent calls
 * svc_task_complete), beside the raw fsync'd write + rename rate.
 */
export async function benchScheduler(options: BenchOptions): Promise<Row[]> {
  const count = options.quick ? 200 : 1000;
  const tree = options.quick ? 2000 : 10_000;
  const latency = await dispatchLatency(join(options.tmp, 'latency'), { count, tree, complete: false }, options.log);
  const interleaved = await dispatchLatency(
    join(options.tmp, 'interleaved'),
    { count: options.quick ? 200 : 500, tree, complete: true },
    options.log,
  );
  const lifecycles = await lifecycleRate(join(options.tmp, 'lifecycle'), options.quick ? 100 : 300, options.log);
  const raw = await rawRate(join(options.tmp, 'raw-lifecycle'), options.quick ? 100 : 300);
  const ratio = (lifecycles * 3) / raw;
  const inTree = `${tree.toLocaleString('en')} tasks in the tree, from daemon start`;
  return [
    ...latencyRows(
      'dispatch latency',
      latency,
      `file renamed into ready/ -> spawn at the adapter, ${count} tasks one at a time, ${inTree}`,
    ),
    ...latencyRows(
      'interleaved latency',
      interleaved,
      'the same, each task completed with svc_task_complete before the next lands',
    ),
    {
      section: 'scheduler',
      metric: 'full lifecycles',
      value: formatNumber(lifecycles, '/s'),
      note: `svc_dispatch -> in-progress -> svc_task_complete via a plugin, 8 at a time; 3 durable writes each = ${Math.round(ratio * 100)} % of raw ${raw.toFixed(0)} writes/s (target >= 60 %)`,
    },
  ];
}

// --- internal ---

function latencyRows(name: string, latency: Latency, note: string): Row[] {
  return [
    {
      section: 'scheduler',
      metric: `${name} p50`,
      value: formatNumber(latency.p50, 'ms'),
      note: `${note} (target <= 20 ms)`,
    },
    {
      section: 'scheduler',
      metric: `${name} p99`,
      value: formatNumber(latency.p99, 'ms'),
      note: 'same run (target <= 50 ms)',
    },
    {
      section: 'scheduler',
      metric: `${name} max`,
      value: formatNumber(latency.max, 'ms'),
      note: 'same run (target <= 100 ms)',
    },
  ];
}

async function lifecycleRate(root: string, count: number, log: (text: string) => void): Promise<number> {
  await writeOrgChart(root, {
    agents: [{ id: 'gw', name: 'Gateway agent', maxConcurrent: 100_000 }],
    aof: { daemon: { bootWindowMs: 2000, maxConcurrentDispatches: 100_000 } },
  });
  const daemon = await startDaemon({ root, tools: TOOLS, env: {} });
  const socket = daemon.paths.socket;
  let done = 0;
  let running = true;
  const plugin = async () => {
    while (running) {
      const reply = await requestDaemon(
        socket,
        { method: 'GET', path: '/v1/spawns/wait' },
        { headers: { 'x-svc-plugin': 'bench' }, timeoutMs: 30_000 },
      ).catch(() => null);
      if (reply?.status !== 200) continue;
      const spawn = reply.body as { id: string; taskId: string; sessionId: string };
      await requestDaemon(socket, {
        method: 'POST',
        path: '/v1/tool/invoke',
        body: { tool: 'svc_task_complete', params: { taskId: spawn.taskId, sessionId: spawn.sessionId } },
      });
      await requestDaemon(socket, { method: 'POST', path: `/v1/spawns/${spawn.id}/result`, body: { ok: true } });
      done++;
    }
  };
  const pollers = Array.from({ length: 8 }, plugin);
  const started = performance.now();
  let next = 0;
  const dispatchers = Array.from({ length: 8 }, async () => {
    while (next < count) {
      next++;
      await requestDaemon(socket, {
        method: 'POST',
        path: '/v1/tool/invoke',
        body: { tool: 'svc_dispatch', params: { title: `Lifecycle ${next}`, brief: 'b', agent: 'gw' } },
      });
    }
  });
  await Promise.all(dispatchers);
  while (done < count) await new Promise((resolve) => setTimeout(resolve, 10));
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await daemon.close();
  await Promise.allSettled(pollers);
  log(`scheduler: ${count} lifecycles in ${seconds.toFixed(1)} s`);
  return count / seconds;
}
