import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestDaemon } from '../lib/daemon/instance/client.js';
import { DAEMON_NODE_FLAGS } from '../lib/daemon/service-file.js';
import { toPaths } from '../lib/store/disk/paths.js';
import { initTree } from '../lib/store/commit/store.js';
import { formatNumber, runQuiet, timeMs, until, type BenchOptions, type Row } from './measure.js';

/**
 * The bulk section: `svc task promote <N ids>` through a running daemon and without one, and `svc import beads` of
 * 1,000, 10,000 and 100,000 issues into an empty root (the built `bin/svc.js`, output to a pipe, so
 * no count is drawn). A rate that falls as the size grows is a step that is not linear.
 */
export async function benchBulk(options: BenchOptions): Promise<Row[]> {
  const bin = join(options.repo, 'bin/svc.js');
  const rows: Row[] = [];
  for (const size of options.quick ? [1_000] : [1_000, 10_000]) {
    rows.push(await benchPromote(options, bin, size, true));
    rows.push(await benchPromote(options, bin, size, false)); // the same command making the moves itself, for comparison
  }
  for (const size of options.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000])
    rows.push(await benchBeads(options, bin, size));
  return rows;
}

// --- internal ---

async function benchPromote(options: BenchOptions, bin: string, size: number, withDaemon: boolean): Promise<Row> {
  const root = join(options.tmp, `promote-${size}`);
  const ids = await writeBacklog(root, size);
  const daemon = withDaemon
    ? spawn(process.execPath, [...DAEMON_NODE_FLAGS, bin, 'daemon', 'run'], {
        env: { ...process.env, SVC_HOME: root, DEBUG: '' },
        stdio: 'ignore',
      })
    : null;
  const how = withDaemon ? 'through the daemon' : 'without a daemon';
  try {
    if (daemon)
      await until(
        async () =>
          (await requestDaemon(toPaths(root).socket, { method: 'GET', path: '/healthz' }).catch(() => ({ status: 0 })))
            .status === 200,
        60_000,
      );
    let code = 0;
    const ms = await timeMs(
      async () =>
        (code = await runQuiet([process.execPath, bin, 'task', 'promote', ...ids], { ...process.env, SVC_HOME: root })),
    );
    if (code !== 0) throw new Error(`svc task promote exited ${code}`);
    const rate = size / (ms / 1000);
    options.log(`bulk: promote of ${size} ids ${how} in ${(ms / 1000).toFixed(1)} s (${rate.toFixed(0)}/s)`);
    return {
      section: 'bulk',
      metric: `svc task promote, ${size.toLocaleString('en-US')} ids, ${withDaemon ? 'daemon' : 'no daemon'}`,
      value: formatNumber(rate, 'ids/s'),
      note: `one run; ${(ms / 1000).toFixed(1)} s in all, the command's start included`,
    };
  } finally {
    if (daemon) await stop(daemon);
    rmSync(root, { recursive: true, force: true });
  }
}

async function benchBeads(options: BenchOptions, bin: string, size: number): Promise<Row> {
  const root = join(options.tmp, `beads-${size}`);
  const source = join(options.tmp, `beads-source-${size}`);
  writeBeads(source, size);
  mkdirSync(root, { recursive: true });
  try {
    let code = 0;
    const ms = await timeMs(
      async () =>
        (code = await runQuiet([process.execPath, bin, 'import', 'beads', source], { ...process.env, SVC_HOME: root })),
    );
    if (code !== 0) throw new Error(`svc import beads exited ${code}`);
    const rate = size / (ms / 1000);
    options.log(`bulk: beads import of ${size} issues in ${(ms / 1000).toFixed(1)} s (${rate.toFixed(0)}/s)`);
    return {
      section: 'bulk',
      metric: `svc import beads, ${size.toLocaleString('en-US')} issues`,
      value: formatNumber(ms / 1000, 's'),
      note: `${rate.toFixed(0)} issues/s; empty root, a third with a dependency, no daemon`,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(source, { recursive: true, force: true });
  }
}

/** `size` backlog task files written directly; their ids. */
async function writeBacklog(root: string, size: number): Promise<string[]> {
  const paths = toPaths(root);
  await initTree(paths);
  const ids: string[] = [];
  for (let i = 1; i <= size; i++) {
    const id = `TASK-2026-01-01-${String(i).padStart(6, '0')}`;
    const stamp = '2026-01-01T00:00:00.000Z';
    writeFileSync(
      paths.taskFile('backlog', id),
      `---\nschemaVersion: 1\nid: ${id}\nproject: bench\ntitle: Bench task ${i}\nstatus: backlog\npriority: normal\nrouting: {}\ncreatedAt: '${stamp}'\nupdatedAt: '${stamp}'\nlastTransitionAt: '${stamp}'\ncreatedBy: bench\ndependsOn: []\nmetadata: {}\n---\n\nA task.\n`,
    );
    ids.push(id);
  }
  return ids;
}

/** A beads project of `size` issues: mixed statuses and priorities, every third blocked by the one before. */
function writeBeads(dir: string, size: number): void {
  mkdirSync(join(dir, '.beads'), { recursive: true });
  const states = ['open', 'closed', 'in_progress', 'blocked'];
  const lines: string[] = [];
  for (let i = 1; i <= size; i++) {
    const dependencies = i > 1 && i % 3 === 0 ? [{ depends_on_id: `bd-${i - 1}`, type: 'blocks' }] : [];
    lines.push(
      JSON.stringify({
        id: `bd-${i}`,
        title: `Issue ${i}`,
        description: `The body of issue ${i}.\n`,
        status: states[i % 4],
        priority: i % 5,
        labels: ['bench'],
        created_at: '2026-01-01T00:00:00Z',
        dependencies,
      }),
    );
  }
  writeFileSync(join(dir, '.beads', 'issues.jsonl'), `${lines.join('\n')}\n`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await gone;
}
