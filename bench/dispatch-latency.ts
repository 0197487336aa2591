import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { requestDaemon } from '../lib/daemon/instance/client.js';
import { startDaemon } from '../lib/daemon/daemon.js';
import { dumpYaml } from '../lib/fs/frontmatter.js';
import { toPaths } from '../lib/store/disk/paths.js';
import { initTree } from '../lib/store/commit/store.js';
import { renderTask } from '../lib/store/disk/task-file.js';
import { TOOLS } from '../lib/tools/index.js';
import { startWebBoard } from '../lib/web/server.js';
import { median } from './measure.js';

// Dispatch latency, a file renamed into ready/ -> the spawn at a gateway double, for the scheduler
// section (scheduler.ts) and the web section's rounds (web-latency.ts, feed-cost.ts).

/** A latency sequence's figures in ms, and how many samples it took. */
export interface Latency {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

/**
 * Renames ready tasks into tasks/ready/ one at a time, the next as soon as the gateway double has the
 * previous spawn (`complete`: once svc_task_complete for it has answered), and times each landing to
 * the spawn's arrival. The daemon starts on a tree of `tree` tasks (95 % done) and the sequence begins
 * just past the boot window, while done tasks are still being read in the background. `around`
 * runs once the daemon is up and returns what to do before it stops.
 */
export async function dispatchLatency(
  root: string,
  run: { count: number; tree: number; complete: boolean; around?: (root: string) => Promise<() => Promise<void>> },
  log: (text: string) => void,
): Promise<Latency> {
  let arrived: ((prompt: string) => void) | null = null;
  const gateway = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      arrived?.(String((JSON.parse(body) as { args?: { task?: string } }).args?.task));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"ok":true,"result":{"details":{"status":"accepted"}}}');
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  await writeOrgChart(root, {
    agents: [{ id: 'gw', name: 'Gateway agent', maxConcurrent: 100_000 }],
    aof: { daemon: { gatewayUrl: url, bootWindowMs: 100, maxConcurrentDispatches: 100_000 } },
  });
  fillTree(root, run.tree);
  execFileSync('sync'); // the tree's 10,000 files on disk now, not written back by the kernel amid the dispatches
  const daemon = await startDaemon({ root, tools: TOOLS, web: startWebBoard, env: { SVC_GATEWAY_TOKEN: 'bench' } });
  const after = await run.around?.(root); // the web section opens boards here
  const staging = join(root, 'staging');
  mkdirSync(staging);
  const samples: number[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, 300)); // past the boot window: standalone
    for (let i = 1; i <= run.count; i++) {
      const id = `TASK-2026-11-21-${String(i).padStart(5, '0')}`;
      writeFileSync(join(staging, `${id}.md`), readyTask(id, 'gw'));
      const reached = new Promise<string>((resolve) => (arrived = resolve));
      const started = performance.now();
      renameSync(join(staging, `${id}.md`), toPaths(root).taskFile('ready', id));
      const prompt = await reached;
      samples.push(performance.now() - started);
      if (run.complete) await complete(daemon.paths.socket, id, prompt);
    }
  } finally {
    await after?.();
    await daemon.close();
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  const result = { p50: median(samples), p99: at(0.99), max: samples.at(-1)!, count: samples.length };
  log(
    `scheduler: ${run.complete ? 'interleaved' : 'dispatch'} latency p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, max ${result.max.toFixed(1)} ms`,
  );
  return result;
}

/** Writes the org chart `chart` (schemaVersion 1 added) into `root` and lays out its tree. */
export async function writeOrgChart(root: string, chart: Record<string, unknown>): Promise<void> {
  mkdirSync(join(root, 'org'), { recursive: true });
  writeFileSync(join(root, 'org', 'org-chart.yaml'), dumpYaml({ schemaVersion: 1, ...chart }));
  await initTree(toPaths(root));
}

// --- internal ---

const AT = '2026-11-21T00:00:00.000Z';

async function complete(socket: string, taskId: string, prompt: string): Promise<void> {
  const sessionId = /sessionId: "([^"]+)"/.exec(prompt)?.[1];
  const reply = await requestDaemon(socket, {
    method: 'POST',
    path: '/v1/tool/invoke',
    body: { tool: 'svc_task_complete', params: { taskId, sessionId, summary: 'bench' } },
  });
  if (reply.status !== 200) throw new Error(`svc_task_complete of ${taskId} failed: ${JSON.stringify(reply.body)}`);
}

/** Writes `size` task files: 95 % done, 5 % backlog (nothing for the scheduler to do at start). */
function fillTree(root: string, size: number): void {
  const paths = toPaths(root);
  for (let i = 1; i <= size; i++) {
    const id = `TASK-2026-01-01-${String(i).padStart(6, '0')}`;
    const status = i % 20 === 0 ? 'backlog' : 'done';
    writeFileSync(
      paths.taskFile(status, id),
      renderTask(
        {
          schemaVersion: 1,
          id,
          project: 'bench',
          title: `Filler ${i}`,
          status,
          priority: 'normal',
          routing: { agent: 'gw' },
          createdAt: AT,
          updatedAt: AT,
          lastTransitionAt: AT,
          createdBy: 'bench',
          dependsOn: [],
          metadata: {},
        },
        'Filler.\n',
      ),
    );
  }
}

function readyTask(id: string, agent: string): string {
  return renderTask(
    {
      schemaVersion: 1,
      id,
      project: 'bench',
      title: `Latency ${id}`,
      status: 'ready',
      priority: 'normal',
      routing: { agent },
      createdAt: AT,
      updatedAt: AT,
      lastTransitionAt: AT,
      createdBy: 'bench',
      dependsOn: [],
      metadata: {},
    },
    'Bench.\n',
  );
}
