import { rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Status } from '../lib/core/status.js';
import { toPaths } from '../lib/store/disk/paths.js';
import { createStore, initTree } from '../lib/store/commit/store.js';
import { renderTask } from '../lib/store/disk/task-file.js';
import { loadavg } from 'node:os';
import { formatNumber, median, runQuiet, timeMs, type BenchOptions, type Row } from './measure.js';
import { timeRun, type Timing } from './startup.js';

/** `svc --version` (median of 10 spawns) and `svc task list --json` on large trees. */
export async function benchCli(options: BenchOptions): Promise<Row[]> {
  // SVC_BENCH_BIN times another build's entry (an older checkout's bin/svc.js), as the start-up section does.
  const bin = process.env.SVC_BENCH_BIN ?? join(options.repo, 'bin/svc.js');
  const rows: Row[] = [];
  if (existsSync(join(options.repo, 'dist/cli/main.js'))) {
    const version: number[] = [];
    for (let i = 0; i < 10; i++) version.push(await timeMs(() => runQuiet([process.execPath, bin, '--version'])));
    rows.push({
      section: 'cli',
      metric: 'svc --version',
      value: formatNumber(median(version), 'ms'),
      note: 'node bin/svc.js --version, median of 10 spawns (target <= 150 ms)',
    });
  } else {
    rows.push({
      section: 'cli',
      metric: 'svc --version',
      value: 'n/a',
      note: 'dist/ is missing: run `npm run bench` (it builds first)',
    });
  }
  for (const size of options.quick ? [1_000, 10_000] : [10_000, 100_000])
    rows.push(...(await benchList(options, bin, size)));
  return rows;
}

// --- internal ---

async function benchList(options: BenchOptions, bin: string, size: number): Promise<Row[]> {
  const root = join(options.tmp, `tree-${size}`);
  const made = await timeMs(() => writeTree(root, size));
  options.log(`cli: wrote ${size} task files in ${(made / 1000).toFixed(1)} s`);
  // The row cache reads again any file changed within 2 s of its own write (a rewrite in one mtime tick
  // keeps its stamp): a tree written just now would be read on every run, as it would be by a user
  // listing it in the same two seconds.
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const count = size.toLocaleString('en-US');
  const inProcess: number[] = [];
  const store = createStore({ root });
  for (let i = 0; i < 3; i++) inProcess.push(await timeMs(() => store.list()));
  const rows: Row[] = [
    {
      section: 'cli',
      metric: `store.list(), ${count} tasks`,
      value: formatNumber(median(inProcess), 'ms'),
      note: 'in-process, median of 3',
    },
  ];
  const env = { ...process.env, SVC_HOME: root };
  for (const command of READS) rows.push(await timeRead(options, bin, env, command, count));
  await rm(root, { recursive: true, force: true });
  return rows;
}

/** The reads timed without a daemon; each first on a cold row cache (data/cache/ removed), then warm. */
const READS: { argv: string[]; note: string }[] = [
  {
    argv: ['task', 'list', '--json'],
    note: 'the active tasks; done and cancelled counted by name (target <= 1 s at 10,000)',
  },
  { argv: ['board', '--json'], note: 'active tasks and done ones; cancelled not read (target <= 1 s at 10,000)' },
  { argv: ['task', 'show', 'TASK-2026-01-01-000005'], note: 'one task and its subtasks (every row, from the cache)' },
  { argv: ['task', 'list', '--all', '--json'], note: 'every task, done and cancelled included' },
];

/** One read: its first run with no row cache, then the median of 5 with it (wall time, and CPU time, which the load barely moves). */
async function timeRead(
  options: BenchOptions,
  bin: string,
  env: NodeJS.ProcessEnv,
  command: (typeof READS)[number],
  count: string,
): Promise<Row> {
  await rm(join(env.SVC_HOME!, 'data', 'cache'), { recursive: true, force: true });
  const argv = [process.execPath, bin, ...command.argv];
  const cold = await timeRun(argv, env);
  const warm: Timing[] = [];
  for (let i = 0; i < 5 && cold.code === 0; i++) warm.push(await timeRun(argv, env));
  const metric = `svc ${command.argv.filter((arg) => !arg.startsWith('TASK-')).join(' ')}, ${count} tasks`;
  const failed = [cold, ...warm].find((run) => run.code !== 0);
  if (failed) return { section: 'cli', metric, value: 'n/a', note: `exited ${failed.code}` };
  const [wall, cpu] = [median(warm.map((t) => t.wallMs)), median(warm.map((t) => t.cpuMs))];
  options.log(
    `cli: ${metric}: cold ${cold.wallMs.toFixed(0)} ms, warm ${wall.toFixed(0)} ms (CPU ${cpu.toFixed(0)} ms)`,
  );
  return {
    section: 'cli',
    metric,
    value: formatNumber(wall, 'ms'),
    note: `no daemon, median of 5 with the row cache, CPU ${formatNumber(cpu, 'ms')}; cold cache ${formatNumber(cold.wallMs, 'ms')} (CPU ${formatNumber(cold.cpuMs, 'ms')}); load ${loadavg()[0]!.toFixed(2)}; ${command.note}`,
  };
}

/** Writes `size` valid task files straight to disk (no fsync, no lock): most done, the rest spread. */
async function writeTree(root: string, size: number): Promise<void> {
  const paths = toPaths(root);
  await initTree(paths);
  const spread: Status[] = ['backlog', 'ready', 'in-progress', 'blocked', 'deadletter', 'cancelled'];
  const stamp = '2026-01-01T00:00:00.000Z';
  const batch: Promise<void>[] = [];
  for (let i = 1; i <= size; i++) {
    const status = i % 10 === 0 ? spread[(i / 10) % spread.length]! : 'done';
    const id = `TASK-2026-01-01-${String(i).padStart(6, '0')}`;
    const task = {
      schemaVersion: 1 as const,
      id,
      project: 'bench',
      title: `Bench task ${i}`,
      status,
      priority: 'normal' as const,
      routing: {},
      createdAt: stamp,
      updatedAt: stamp,
      lastTransitionAt: stamp,
      createdBy: 'bench',
      dependsOn: [],
      metadata: {},
    };
    batch.push(writeFile(paths.taskFile(status, id), renderTask(task, `Body of task ${i}.\n`)));
    if (batch.length === 256) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
}
