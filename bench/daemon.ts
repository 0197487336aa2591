import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestDaemon } from '../lib/daemon/instance/client.js';
import { DAEMON_NODE_FLAGS } from '../lib/daemon/service-file.js';
import { toPaths } from '../lib/store/disk/paths.js';
import { initTree } from '../lib/store/commit/store.js';
import { benchListMemory } from './list-memory.js';
import { formatNumber, median, rssMb, runQuiet, timeMs, until, type BenchOptions, type Row } from './measure.js';

/**
 * The daemon section: start-to-healthy time and resident memory with 10,000 and 100,000 tasks in
 * the tree (90 % done, 5 % ready, 5 % backlog), `svc_status` latency there, the memory of an
 * in-process `store.list()` of the 10,000 (`list-memory.ts`), and tool calls/s over the socket (median of 5 runs). Runs the built `bin/svc.js daemon run` with the flags the service uses.
 */
export async function benchDaemon(options: Partial<BenchOptions> & { quick: boolean }): Promise<Row[]> {
  const tmp = options.tmp ?? join(tmpdir(), `svc-bench-${process.pid}`);
  const log = options.log ?? (() => undefined);
  const rows: Row[] = [];
  for (const size of options.quick ? [10_000] : [10_000, 100_000])
    rows.push(...(await benchScale(join(tmp, `scale-${size}`), size, log)));
  rows.push(...(await benchCalls(join(tmp, 'calls'), options.quick, log)));
  if (!options.tmp) rmSync(tmp, { recursive: true, force: true });
  return rows;
}

// --- internal ---

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

async function benchScale(root: string, size: number, log: (text: string) => void): Promise<Row[]> {
  await generateTree(root, size);
  const listRows = size === 10_000 ? benchListMemory(root, size) : [];
  log(`daemon: ${size} tasks written; starting the daemon`);
  const started = performance.now();
  const daemon = startDaemonProcess(root);
  try {
    await until(async () => (await health(root)) && readPid(root) === daemon.pid, 120_000);
    const healthyMs = performance.now() - started;
    const rssHealthy = rssMb(daemon.pid!);
    await until(
      async () =>
        (
          (await requestDaemon(toPaths(root).socket, { method: 'GET', path: '/status' })).body as {
            tasks: { loaded: boolean };
          }
        ).tasks.loaded,
      300_000,
    );
    const loadedMs = performance.now() - started;
    const statusMs = median(await repeat(5, () => timeCall(root, 'svc_status', {})));
    const listMs = median(
      await repeat(3, () =>
        timeMs(() => runQuiet([process.execPath, bin, 'task', 'list', '--json'], { ...process.env, SVC_HOME: root })),
      ),
    );
    const rssLoaded = rssMb(daemon.pid!);
    log(
      `daemon: ${size} tasks: healthy in ${healthyMs.toFixed(0)} ms, loaded in ${loadedMs.toFixed(0)} ms, RSS ${rssLoaded.toFixed(0)} MB`,
    );
    const n = size.toLocaleString('en');
    return [
      {
        section: 'daemon',
        metric: `start to healthy, ${n} tasks`,
        value: formatNumber(healthyMs / 1000, 's'),
        note: `active tasks read before /healthz answers (target <= 5 s at 100,000); RSS then ${rssHealthy.toFixed(0)} MB`,
      },
      {
        section: 'daemon',
        metric: `start to index loaded, ${n} tasks`,
        value: formatNumber(loadedMs / 1000, 's'),
        note: 'done/cancelled read in the background; only listings of them wait for it',
      },
      {
        section: 'daemon',
        metric: `resident memory, ${n} tasks`,
        value: formatNumber(rssLoaded, 'MB'),
        note: 'RSS of the daemon process once loaded (target <= 200 MB at 100,000)',
      },
      {
        section: 'daemon',
        metric: `svc_status, ${n} tasks`,
        value: formatNumber(statusMs, 'ms'),
        note: 'median of 5 calls over the socket (target <= 50 ms at 100,000)',
      },
      {
        section: 'daemon',
        metric: `svc task list, ${n} tasks`,
        value: formatNumber(listMs, 'ms'),
        note: 'node bin/svc.js task list --json > /dev/null, served from the index, median of 3 (target <= 1 s at 100,000)',
      },
      ...listRows,
    ];
  } finally {
    await stop(daemon);
    rmSync(root, { recursive: true, force: true });
  }
}

async function benchCalls(root: string, quick: boolean, log: (text: string) => void): Promise<Row[]> {
  await generateTree(root, 1000);
  const daemon = startDaemonProcess(root);
  try {
    await until(async () => (await health(root)) && readPid(root) === daemon.pid, 60_000);
    const ops = quick ? 200 : 1000;
    const status: number[] = [];
    const dispatch: number[] = [];
    for (let run = 0; run < 5; run++) {
      status.push(await rate(ops, () => call(root, 'svc_status', { compact: true, limit: 5 })));
      dispatch.push(
        await rate(ops / 5, (i) =>
          call(root, 'svc_dispatch', { title: `Bench ${run}-${i}`, brief: 'Measure me.', agent: 'dev' }),
        ),
      );
      log(
        `daemon: run ${run + 1}/5: svc_status ${status.at(-1)!.toFixed(0)}/s, svc_dispatch ${dispatch.at(-1)!.toFixed(0)}/s`,
      );
    }
    const of = (n: number) =>
      `median of 5 runs of ${n} sequential calls, one connection each, 1,000+ tasks in the tree`;
    return [
      {
        section: 'daemon',
        metric: 'tool calls/s, svc_status',
        value: formatNumber(median(status), 'calls/s'),
        note: of(ops),
      },
      {
        section: 'daemon',
        metric: 'tool calls/s, svc_dispatch',
        value: formatNumber(median(dispatch), 'calls/s'),
        note: `${of(ops / 5)}; durable writes`,
      },
    ];
  } finally {
    await stop(daemon);
    rmSync(root, { recursive: true, force: true });
  }
}

/** Writes `size` task files directly: 90 % done, 5 % ready, 5 % backlog. */
async function generateTree(root: string, size: number): Promise<void> {
  mkdirSync(root, { recursive: true });
  const paths = toPaths(root);
  await initTree(paths);
  for (let i = 1; i <= size; i++) {
    const id = `TASK-2026-01-01-${String(i).padStart(6, '0')}`;
    const status = i % 20 === 0 ? 'ready' : i % 20 === 1 ? 'backlog' : 'done';
    writeFileSync(
      paths.taskFile(status, id),
      TEMPLATE.replaceAll('@ID', id).replaceAll('@STATUS', status).replace('@N', String(i)),
    );
  }
}

const TEMPLATE = `---
schemaVersion: 1
id: @ID
project: bench
title: Bench task @N
status: @STATUS
priority: normal
routing:
  agent: dev
createdAt: '2026-01-01T00:00:00.000Z'
updatedAt: '2026-01-01T00:00:00.000Z'
lastTransitionAt: '2026-01-01T00:00:00.000Z'
createdBy: bench
dependsOn: []
metadata: {}
---

${'A task body of typical length, a few sentences of Markdown. '.repeat(4)}
`;

function startDaemonProcess(root: string): ChildProcess {
  return spawn(process.execPath, [...DAEMON_NODE_FLAGS, bin, 'daemon', 'run'], {
    env: { ...process.env, SVC_HOME: root, DEBUG: '' },
    stdio: 'ignore',
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await gone;
}

async function health(root: string): Promise<boolean> {
  return (
    (await requestDaemon(toPaths(root).socket, { method: 'GET', path: '/healthz' }).catch(() => ({ status: 0 })))
      .status === 200
  );
}

function readPid(root: string): number | null {
  try {
    return Number(readFileSync(toPaths(root).pidFile, 'utf8'));
  } catch {
    return null;
  }
}

async function call(root: string, tool: string, params: object): Promise<void> {
  const { status, body } = await requestDaemon(toPaths(root).socket, {
    method: 'POST',
    path: '/v1/tool/invoke',
    body: { tool, params },
  });
  if (status !== 200) throw new Error(`${tool} failed: ${JSON.stringify(body)}`);
}

async function timeCall(root: string, tool: string, params: object): Promise<number> {
  const started = performance.now();
  await call(root, tool, params);
  return performance.now() - started;
}

async function rate(ops: number, fn: (i: number) => Promise<void>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < ops; i++) await fn(i);
  return ops / ((performance.now() - started) / 1000);
}

async function repeat(times: number, fn: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < times; i++) out.push(await fn());
  return out;
}
