import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { requestDaemon } from '../lib/daemon/client.js';
import { startDaemon } from '../lib/daemon/daemon.js';
import { dumpYaml } from '../lib/fs/frontmatter.js';
import { toPaths } from '../lib/store/paths.js';
import { initTree } from '../lib/store/store.js';
import { renderTask } from '../lib/store/task-file.js';
import { TOOLS } from '../lib/tools/index.js';
import { formatNumber, median, type Row } from './measure.js';
import { rawRate, type BenchOptions } from './store.js';

/**
 * The scheduler section: dispatch latency (a file renamed into ready/ -> the spawn reaching the
 * standalone adapter's gateway), and full lifecycles per second through the daemon (svc_dispatch ->
 * dispatch -> a plugin's agent calls svc_task_complete), beside the raw fsync'd write + rename rate.
 */
export async function benchScheduler(options: BenchOptions): Promise<Row[]> {
  const count = options.quick ? 200 : 1000;
  const latency = await dispatchLatency(join(options.tmp, 'latency'), count, options.log);
  const lifecycles = await lifecycleRate(join(options.tmp, 'lifecycle'), options.quick ? 100 : 300, options.log);
  const raw = await rawRate(join(options.tmp, 'raw-lifecycle'), options.quick ? 100 : 300);
  const ratio = (lifecycles * 3) / raw;
  return [
    { section: 'scheduler', metric: 'dispatch latency p50', value: formatNumber(latency.p50, 'ms'), note: `file renamed into ready/ -> spawn at the adapter, ${count} tasks one at a time (target <= 20 ms)` },
    { section: 'scheduler', metric: 'dispatch latency p99', value: formatNumber(latency.p99, 'ms'), note: 'same run (target <= 100 ms)' },
    { section: 'scheduler', metric: 'full lifecycles', value: formatNumber(lifecycles, '/s'), note: `svc_dispatch -> in-progress -> svc_task_complete via a plugin, 8 at a time; 3 durable writes each = ${Math.round(ratio * 100)} % of raw ${raw.toFixed(0)} writes/s (target >= 60 %)` },
  ];
}

// --- internal ---

const AT = '2026-11-21T00:00:00.000Z';

async function dispatchLatency(root: string, count: number, log: (text: string) => void): Promise<{ p50: number; p99: number }> {
  let arrived: (() => void) | null = null;
  const gateway = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived?.();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"result":{"details":{"status":"accepted"}}}');
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  await writeOrgChart(root, { agents: [{ id: 'gw', name: 'Gateway agent', maxConcurrent: 100_000 }], aof: { daemon: { gatewayUrl: url, bootWindowMs: 100, maxConcurrentDispatches: 100_000 } } });
  const daemon = await startDaemon({ root, tools: TOOLS, env: { SVC_GATEWAY_TOKEN: 'bench' } });
  const staging = join(root, 'staging');
  mkdirSync(staging);
  const samples: number[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, 300)); // past the boot window: standalone
    for (let i = 1; i <= count; i++) {
      const id = `TASK-2026-11-21-${String(i).padStart(5, '0')}`;
      writeFileSync(join(staging, `${id}.md`), readyTask(id, 'gw'));
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      const started = performance.now();
      renameSync(join(staging, `${id}.md`), toPaths(root).taskFile('ready', id));
      await reached;
      samples.push(performance.now() - started);
    }
  } finally {
    await daemon.close();
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  log(`scheduler: dispatch latency p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms`);
  return { p50: median(samples), p99: at(0.99) };
}

async function lifecycleRate(root: string, count: number, log: (text: string) => void): Promise<number> {
  await writeOrgChart(root, { agents: [{ id: 'gw', name: 'Gateway agent', maxConcurrent: 100_000 }], aof: { daemon: { bootWindowMs: 2000, maxConcurrentDispatches: 100_000 } } });
  const daemon = await startDaemon({ root, tools: TOOLS, env: {} });
  const socket = daemon.paths.socket;
  let done = 0;
  let running = true;
  const plugin = async () => {
    while (running) {
      const reply = await requestDaemon(socket, 'GET', '/v1/spawns/wait', undefined, { headers: { 'x-svc-plugin': 'bench' }, timeoutMs: 30_000 }).catch(() => null);
      if (reply?.status !== 200) continue;
      const spawn = reply.body as { id: string; taskId: string; sessionId: string };
      await requestDaemon(socket, 'POST', '/v1/tool/invoke', { tool: 'svc_task_complete', params: { taskId: spawn.taskId, sessionId: spawn.sessionId } });
      await requestDaemon(socket, 'POST', `/v1/spawns/${spawn.id}/result`, { ok: true });
      done++;
    }
  };
  const pollers = Array.from({ length: 8 }, plugin);
  const started = performance.now();
  let next = 0;
  const dispatchers = Array.from({ length: 8 }, async () => {
    while (next < count) {
      next++;
      await requestDaemon(socket, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title: `Lifecycle ${next}`, brief: 'b', agent: 'gw' } });
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

async function writeOrgChart(root: string, chart: Record<string, unknown>): Promise<void> {
  mkdirSync(join(root, 'org'), { recursive: true });
  writeFileSync(join(root, 'org', 'org-chart.yaml'), dumpYaml({ schemaVersion: 1, ...chart }));
  await initTree(toPaths(root));
}

function readyTask(id: string, agent: string): string {
  return renderTask({ schemaVersion: 1, id, project: 'bench', title: `Latency ${id}`, status: 'ready', priority: 'normal', routing: { agent }, createdAt: AT, updatedAt: AT, lastTransitionAt: AT, createdBy: 'bench', dependsOn: [], metadata: {} }, 'Bench.\n');
}
