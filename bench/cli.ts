import { rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Status } from '../lib/core/status.js';
import { toPaths } from '../lib/store/paths.js';
import { createStore, initTree } from '../lib/store/store.js';
import { renderTask } from '../lib/store/task-file.js';
import { formatNumber, median, runQuiet, timeMs, type BenchOptions, type Row } from './measure.js';

/** `svc --version` (median of 10 spawns) and `svc task list --json` on large trees. */
export async function benchCli(options: BenchOptions): Promise<Row[]> {
  const bin = join(options.repo, 'bin/svc.js');
  const rows: Row[] = [];
  if (existsSync(join(options.repo, 'dist/cli/main.js'))) {
    const version: number[] = [];
    for (let i = 0; i < 10; i++) version.push(await timeMs(() => runQuiet([process.execPath, bin, '--version'])));
    rows.push({ section: 'cli', metric: 'svc --version', value: formatNumber(median(version), 'ms'), note: 'node bin/svc.js --version, median of 10 spawns (target <= 150 ms)' });
  } else {
    rows.push({ section: 'cli', metric: 'svc --version', value: 'n/a', note: 'dist/ is missing: run `npm run bench` (it builds first)' });
  }
  for (const size of options.quick ? [1_000, 10_000] : [10_000, 100_000]) rows.push(...(await benchList(options, bin, size)));
  return rows;
}

// --- internal ---

async function benchList(options: BenchOptions, bin: string, size: number): Promise<Row[]> {
  const root = join(options.tmp, `tree-${size}`);
  const made = await timeMs(() => writeTree(root, size));
  options.log(`cli: wrote ${size} task files in ${(made / 1000).toFixed(1)} s`);
  const count = size.toLocaleString('en-US');
  const inProcess: number[] = [];
  const store = createStore({ root });
  for (let i = 0; i < 3; i++) inProcess.push(await timeMs(() => store.list()));
  const rows: Row[] = [{ section: 'cli', metric: `store.list(), ${count} tasks`, value: formatNumber(median(inProcess), 'ms'), note: 'in-process, median of 3' }];
  const env = { ...process.env, SVC_HOME: root };
  const argv = [process.execPath, bin, 'task', 'list', '--json'];
  const times: number[] = [];
  let code = 0;
  for (let i = 0; i < 3 && code === 0; i++) times.push(await timeMs(async () => { code = await runQuiet(argv, env); }));
  if (code !== 0) {
    rows.push({ section: 'cli', metric: `svc task list, ${count} tasks`, value: 'n/a', note: `\`svc task list --json\` exited ${code}: not available yet (see store.list() above)` });
  } else {
    rows.push({ section: 'cli', metric: `svc task list, ${count} tasks`, value: formatNumber(median(times), 'ms'), note: 'node bin/svc.js task list --json > /dev/null, median of 3, no daemon (target <= 1 s at 100,000)' });
  }
  await rm(root, { recursive: true, force: true });
  return rows;
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
      schemaVersion: 1 as const, id, project: 'bench', title: `Bench task ${i}`, status, priority: 'normal' as const, routing: {},
      createdAt: stamp, updatedAt: stamp, lastTransitionAt: stamp, createdBy: 'bench', dependsOn: [], metadata: {},
    };
    batch.push(writeFile(paths.taskFile(status, id), renderTask(task, `Body of task ${i}.\n`)));
    if (batch.length === 256) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
}
