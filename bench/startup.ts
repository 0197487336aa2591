import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestDaemon } from '../lib/daemon/instance/client.js';
import { DAEMON_NODE_FLAGS } from '../lib/daemon/service-file.js';
import { toPaths } from '../lib/store/disk/paths.js';
import { formatNumber, median, type BenchOptions, type Row } from './measure.js';

/** The everyday commands timed, each given the iteration number (fresh tasks for the ones that move a task). */
const COMMANDS: { name: string; argv: (i: number) => string[] }[] = [
  { name: 'svc --version', argv: () => ['--version'] },
  { name: 'svc task create', argv: (i) => ['task', 'create', `Bench create ${i}`] },
  { name: 'svc task list', argv: () => ['task', 'list'] },
  { name: 'svc task show', argv: () => ['task', 'show', toId(1)] },
  { name: 'svc task promote', argv: (i) => ['task', 'promote', toId(PROMOTE + i)] },
  { name: 'svc task status', argv: (i) => ['task', 'status', toId(STATUS + i), 'ready'] },
  { name: 'svc task claim', argv: (i) => ['task', 'claim', toId(CLAIM + i)] },
  { name: 'svc task close', argv: (i) => ['task', 'close', toId(CLOSE + i)] },
  { name: 'svc board', argv: () => ['board'] },
  { name: 'svc daemon status', argv: () => ['daemon', 'status'] },
  { name: 'svc tool svc_status', argv: () => ['tool', 'svc_status', '{"compact":true}'] },
];

/** Runs per command (the median is reported). */
const RUNS = 10;

/**
 * The start-up section: each everyday command spawned `RUNS` times on a tree of 80 tasks, interleaved
 * with `node -e 0` so that both see the same load; the figure is the ratio of the medians, without a
 * daemon and then with one running (targets <= 2.5x and <= 2x).
 */
export async function benchStartup(options: BenchOptions): Promise<Row[]> {
  const rows: Row[] = [];
  for (const daemon of [false, true]) {
    const root = join(options.tmp, `startup-${daemon ? 'daemon' : 'plain'}`);
    writeTree(root);
    const child = daemon ? await startDaemon(root) : null;
    try {
      rows.push(...(await timeCommands(options, root, daemon)));
    } finally {
      if (child) await stop(child);
      rmSync(root, { recursive: true, force: true });
    }
  }
  return rows;
}

// --- internal ---

// SVC_BENCH_BIN times another build's entry (an older checkout's bin/svc.js), for a before/after table.
const bin = process.env.SVC_BENCH_BIN ?? fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const PROMOTE = 100;
const STATUS = 200;
const CLAIM = 300;
const CLOSE = 400;

async function timeCommands(options: BenchOptions, root: string, daemon: boolean): Promise<Row[]> {
  const env = { ...process.env, SVC_HOME: root, NO_COLOR: '1', DEBUG: '' };
  const rows: Row[] = [];
  const mode = daemon ? 'with a daemon' : 'no daemon';
  for (const command of COMMANDS) {
    const node: Timing[] = [];
    const svc: Timing[] = [];
    const load = loadavg()[0]!;
    for (let i = 0; i < RUNS; i++) {
      node.push(await timeRun([process.execPath, '-e', '0'], env));
      const run = await timeRun([process.execPath, bin, ...command.argv(i)], env);
      if (run.code !== 0 && !(command.name === 'svc daemon status' && run.code === 3))
        throw new Error(`bench: ${command.argv(i).join(' ')} exited ${run.code} (${mode})`);
      svc.push(run);
    }
    const wall = median(svc.map((t) => t.wallMs)) / median(node.map((t) => t.wallMs));
    const cpu = median(svc.map((t) => t.cpuMs)) / median(node.map((t) => t.cpuMs));
    options.log(
      `startup: ${command.name}, ${mode}: ${median(svc.map((t) => t.wallMs)).toFixed(0)} ms (${wall.toFixed(2)}x), CPU ${cpu.toFixed(2)}x`,
    );
    rows.push({
      section: 'startup',
      metric: `${command.name}, ${mode}`,
      value: `${wall.toFixed(2)}x`,
      note: `${formatNumber(median(svc.map((t) => t.wallMs)), 'ms')} vs node -e 0 ${formatNumber(median(node.map((t) => t.wallMs)), 'ms')}; CPU ${cpu.toFixed(2)}x (${formatNumber(median(svc.map((t) => t.cpuMs)), 'ms')}); median of ${RUNS}, load ${load.toFixed(2)} (target <= ${daemon ? 2 : 2.5}x)`,
    });
  }
  return rows;
}

/** One run's wall time and CPU time (user + system, its children included), from bash's `time`. */
export interface Timing {
  wallMs: number;
  cpuMs: number;
  code: number;
}

/** Runs a command with its output discarded, timed by bash's `time` keyword (millisecond resolution, CPU time from the kernel). */
export function timeRun(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<Timing> {
  const script = 'TIMEFORMAT="%3R %3U %3S"; { time "$@" >/dev/null 2>/dev/null </dev/null; } 2>&1; echo "$?"';
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', script, 'time', ...argv], { env }, (err, stdout) => {
      if (err) return reject(err);
      const [times, code] = stdout.trim().split('\n');
      const [real, user, sys] = times!.split(' ').map(Number);
      resolve({ wallMs: real! * 1000, cpuMs: (user! + sys!) * 1000, code: Number(code) });
    });
  });
}

function toId(n: number): string {
  return `TASK-2026-01-01-${String(n).padStart(3, '0')}`;
}

/** 40 done tasks and 10 each to promote, set ready, claim and close (the last two start ready). */
function writeTree(root: string): void {
  const paths = toPaths(root);
  for (const dir of ['backlog', 'ready', 'in-progress', 'done', 'blocked', 'deadletter', 'cancelled'])
    mkdirSync(join(paths.root, 'tasks', dir), { recursive: true });
  const put = (n: number, status: string) =>
    writeFileSync(
      paths.taskFile(status as 'done', toId(n)),
      TEMPLATE.replaceAll('@ID', toId(n)).replaceAll('@STATUS', status).replace('@N', String(n)),
    );
  for (let n = 1; n <= 40; n++) put(n, 'done');
  for (let i = 0; i < RUNS; i++) {
    put(PROMOTE + i, 'backlog');
    put(STATUS + i, 'backlog');
    put(CLAIM + i, 'ready');
    put(CLOSE + i, 'ready');
  }
}

const TEMPLATE = `---
schemaVersion: 1
id: @ID
project: bench
title: Bench task @N
status: @STATUS
priority: normal
routing: {}
createdAt: '2026-01-01T00:00:00.000Z'
updatedAt: '2026-01-01T00:00:00.000Z'
lastTransitionAt: '2026-01-01T00:00:00.000Z'
createdBy: bench
dependsOn: []
metadata: {}
---

A task body of typical length, a few sentences of Markdown.
`;

async function startDaemon(root: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...DAEMON_NODE_FLAGS, bin, 'daemon', 'run'], {
    env: { ...process.env, SVC_HOME: root, DEBUG: '' },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await requestDaemon(toPaths(root).socket, { method: 'GET', path: '/status' }).catch(() => null);
    if (
      up?.status === 200 &&
      (up.body as { tasks?: { loaded?: boolean } }).tasks?.loaded &&
      readPid(root) === child.pid
    )
      return child;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('bench: the daemon did not come up');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function readPid(root: string): number | null {
  try {
    return Number(readFileSync(toPaths(root).pidFile, 'utf8'));
  } catch {
    return null;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await gone;
}
