// Figures of svc on a GlusterFS volume (bench/README.md, "Several hosts on one tree (GlusterFS)"),
// run by hand as root where glusterfs-server and glusterfs-client are installed, never by `npm test`:
//
//   npm run build && node --import tsx bench/gluster.ts [tasks] [rounds]
//
// Per round, interleaved so both option sets meet the same load: for the default and the coherent
// options, a burst of `tasks` svc_dispatch calls drained by two daemons (one per mount), then by
// one daemon alone (the other stopped before the burst), and the time a task created through one
// daemon takes to be dispatched by the other. Then single file operations (create, rename) on
// each mount against the local disk. SVC_BENCH_STRACE=1 counts the daemons' syscalls (strace -c);
// SVC_BENCH_OPTIONS (default, coherent), SVC_BENCH_DAEMONS (1, 2) and SVC_BENCH_OPS=0 narrow a run.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, closeSync, openSync, fsyncSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toPaths } from '../lib/store/disk/paths.js';
import { initTree } from '../lib/store/commit/store.js';
import { COHERENT_DAEMON_ENV, startGlusterVolume, type GlusterVolume } from '../test/helpers/gluster.js';
import { stopDaemon, withTwoHosts, type Host } from '../test/helpers/two-daemons.js';
import { assertOnce, untilDone } from '../test/helpers/two-daemons-checks.js';
import { dispatchBurst, remoteLatency } from '../test/helpers/two-daemons-load.js';
import { median } from './measure.js';

const TASKS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 3);
const STRACE = process.env.SVC_BENCH_STRACE === '1';
const OPTIONS = process.env.SVC_BENCH_OPTIONS ? [process.env.SVC_BENCH_OPTIONS === 'coherent'] : [false, true]; // 'default' or 'coherent' alone
const DAEMONS = process.env.SVC_BENCH_DAEMONS ? [Number(process.env.SVC_BENCH_DAEMONS)] : [2, 1];

interface Run {
  calls: number;
  drain: number;
}

const volume = await startGlusterVolume();
const figures = new Map<string, number[]>();
const add = (key: string, value: number) => figures.set(key, [...(figures.get(key) ?? []), value]);
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const coherent of OPTIONS) {
      const label = coherent ? 'coherent' : 'default';
      for (const daemons of DAEMONS) {
        const run = await burst(volume, coherent, daemons);
        add(`${label} ${daemons} calls`, run.calls);
        add(`${label} ${daemons} drain`, run.drain);
        log(
          `round ${round + 1}, ${label}, ${daemons} daemon(s): ${TASKS} calls answered in ${seconds(run.calls)}, drained in ${seconds(run.drain)}`,
        );
      }
    }
  }
  for (const coherent of process.env.SVC_BENCH_OPS === '0' ? [] : [false, true]) {
    const ops = await fileOps(volume, coherent);
    log(`${coherent ? 'coherent' : 'default'} mount: ${ops}`);
  }
  if (process.env.SVC_BENCH_OPS !== '0') log(`local disk: ${await fileOps(undefined, false)}`);
  for (const [key, values] of figures)
    log(`median ${key}: ${seconds(median(values))} (${values.map(seconds).join(', ')})`);
} finally {
  await volume.stop();
}

async function burst(vol: GlusterVolume, coherent: boolean, daemons: number): Promise<Run> {
  await vol.setCoherent(coherent);
  const tree = `${coherent ? 'coherent' : 'default'}-${daemons}-${Date.now()}`;
  const root = `${vol.admin}/${tree}`;
  await initTree(toPaths(root));
  let run: Run = { calls: 0, drain: 0 };
  await withTwoHosts(
    {
      mount: (home) => vol.mount(toPaths(home).tasks, { coherent, subdir: `${tree}/tasks` }),
      daemon: { defaultLeaseTtlMs: 600_000 },
      env: coherent && process.env.SVC_BENCH_THREADS !== '4' ? COHERENT_DAEMON_ENV : {},
    },
    async (hosts) => {
      if (daemons === 1) await stopDaemon(hosts[1]!);
      const serving = hosts.slice(0, daemons);
      const traces = STRACE ? serving.map((host) => strace(host)) : [];
      const started = Date.now();
      const ids = await dispatchBurst(serving, TASKS);
      const calls = Date.now() - started;
      await untilDone(toPaths(root).tasks, ids, serving, 120_000);
      run = { calls, drain: Date.now() - started };
      for (const [i, trace] of traces.entries())
        log(
          `strace -c of ${serving[i]!.name} (${coherent ? 'coherent' : 'default'}, ${daemons} daemons):\n${await trace()}`,
        );
      await assertOnce(serving, toPaths(root).tasks, ids);
      if (daemons === 2) {
        const latency = await remoteLatency(hosts);
        for (const ms of latency) add(`${coherent ? 'coherent' : 'default'} remote change`, ms);
        log(`remote change (${coherent ? 'coherent' : 'default'}): ${latency.map(seconds).join(', ')}`);
      }
    },
  );
  rmSync(root, { recursive: true, force: true });
  return run;
}

/** Mean ms per create (write, fsync, close) and per rename across status directories, 200 of each. */
async function fileOps(vol: GlusterVolume | undefined, coherent: boolean): Promise<string> {
  const base = mkdtempSync(join(tmpdir(), 'svc-bench-ops-'));
  let dir = base;
  let mount: { unmount(): Promise<void> } | undefined;
  if (vol) {
    await vol.setCoherent(coherent);
    const name = `ops-${Date.now()}`;
    mkdirSync(`${vol.admin}/${name}`);
    mount = await vol.mount(`${base}/m`, { coherent, subdir: name });
    dir = `${base}/m`;
  }
  mkdirSync(`${dir}/ready`);
  mkdirSync(`${dir}/done`);
  const n = 200;
  let from = performance.now();
  for (let i = 0; i < n; i++) {
    const fd = openSync(`${dir}/ready/${i}.md`, 'wx');
    writeFileSync(fd, 'x'.repeat(600));
    fsyncSync(fd);
    closeSync(fd);
  }
  const create = (performance.now() - from) / n;
  from = performance.now();
  for (let i = 0; i < n; i++) renameSync(`${dir}/ready/${i}.md`, `${dir}/done/${i}.md`);
  const rename = (performance.now() - from) / n;
  await mount?.unmount();
  rmSync(base, { recursive: true, force: true });
  return `create ${create.toFixed(2)} ms, rename ${rename.toFixed(2)} ms (${(1000 / create).toFixed(0)} creates/s, ${(1000 / rename).toFixed(0)} renames/s)`;
}

/** strace -c -f on a daemon until the returned function is called; resolves to strace's table. */
function strace(host: Host): () => Promise<string> {
  const out = process.env.SVC_BENCH_STRACE_OUT;
  const args = out ? ['-f', '-T', '-e', 'trace=%file,%desc', '-o', `${out}.${host.name}`] : ['-c', '-w', '-f'];
  const child: ChildProcess = spawn('strace', [...args, '-p', String(host.daemon!.child.pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let table = '';
  child.stderr!.on('data', (chunk: Buffer) => (table += chunk.toString()));
  return async () => {
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
    return table.split('\n').slice(0, 30).join('\n');
  };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
  writeFileSync(join(tmpdir(), 'svc-bench-gluster.log'), `${line}\n`, { flag: 'a' });
}
