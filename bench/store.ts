import { constants } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { dirSyncCount } from '../lib/fs/fsync-dir.js';
import { createStore, type Store } from '../lib/store/commit/store.js';
import { startCallDaemon, type Measured } from './commit-daemon.js';
import { measureParts, partRows, type Parts } from './commit-parts.js';
import { formatNumber, inParallel, median, timeMs, type BenchOptions, type Row } from './measure.js';

/**
 * The store section: the disk's raw durable-write and rename rates, then creates and transitions
 * (in process and through the daemon's socket, one at a time and 16 at once) with their ratio to
 * the raw rate measured in the same run, and where a change's time goes (bench/README.md, "Method").
 */
export async function benchStore(options: BenchOptions): Promise<Row[]> {
  const ops = options.quick ? 100 : 200;
  const runs = options.quick ? 3 : 5;
  const rates: Record<string, number[]> = {};
  const add = (key: string, value: number) => (rates[key] ??= []).push(value);
  const parts: Parts[] = [];
  const costs: Record<string, Measured[]> = {};
  const daemon = await startCallDaemon(join(options.tmp, 'daemon'), options.repo);
  try {
    // Warm: the daemon of the whole section, past its first calls (its code compiled, its caches full).
    for (const [, width, kind] of THROUGH) await daemon[kind](ops, width);
    for (let run = 0; run < runs; run++) {
      // Interleaved, so a noisy neighbour slows all of them alike.
      add('raw', await rawRate(join(options.tmp, `raw-${run}`), ops));
      add('rename', await renameRate(join(options.tmp, `rename-${run}`), ops * 5));
      const root = join(options.tmp, `store-${run}`);
      const store = createStore({ root });
      await store.init();
      add('create', await createRate(store, ops, 1));
      const ids = (
        await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            store.create({ title: `Moved ${i}`, createdBy: 'bench', body: CONTENT }),
          ),
        )
      ).map((t) => t.task.id);
      add('transition', await transitionRate(store, ids.slice(0, 1), ops));
      let syncs = dirSyncCount();
      add('create16', await createRate(store, ops, 16));
      add('createSyncs', (dirSyncCount() - syncs) / ops);
      syncs = dirSyncCount();
      add('transition16', await transitionRate(store, ids, ops));
      add('transitionSyncs', (dirSyncCount() - syncs) / ops);
      parts.push(await measureParts(store, ops, CONTENT));
      await rm(root, { recursive: true, force: true });
      for (const [key, width, kind] of THROUGH) {
        const warm = await daemon[kind](ops, width);
        add(key, warm.rate);
        (costs[key] ??= []).push(warm);
        // Cold: a daemon started for this row alone, its first calls measured.
        const coldRoot = join(options.tmp, `cold-${run}-${key}`);
        const cold = await startCallDaemon(coldRoot, options.repo);
        try {
          const measured = await cold[kind](ops, width);
          add(`${key}Cold`, measured.rate);
          (costs[`${key}Cold`] ??= []).push(measured);
        } finally {
          await cold.stop();
          await rm(coldRoot, { recursive: true, force: true });
        }
      }
      options.log(
        `store: run ${run + 1}/${runs}: ${Object.entries(rates)
          .map(([k, v]) => `${k} ${v.at(-1)!.toFixed(k.endsWith('Syncs') ? 2 : 0)}`)
          .join(', ')}`,
      );
    }
  } finally {
    await daemon.stop();
  }
  const m = (key: string) => median(rates[key]!);
  const raw = m('raw');
  const of = `median of ${runs} interleaved runs of ${ops} ops`;
  // The share of raw is the median of each run's own ratio: on a shared disk the raw rate moves from run to run.
  const share = (key: string) => median(rates[key]!.map((value, i) => value / rates.raw![i]!));
  const rate = (key: string, metric: string, target: string, extra = '') => ({
    section: 'store',
    metric,
    value: formatNumber(m(key), 'ops/s'),
    note: `${pct(share(key))} of raw, the median of the runs' own ratios (target ${target})${extra}; ${of}`,
  });
  const syncs = (key: string) => `; ${m(key).toFixed(2)} directory fsyncs a change`;
  return [
    {
      section: 'store',
      metric: 'raw durable write (write, fsync, rename, fsync dir)',
      value: formatNumber(raw, 'ops/s'),
      note: `one at a time; ${of}`,
    },
    {
      section: 'store',
      metric: 'raw rename (no fsync)',
      value: formatNumber(m('rename'), 'ops/s'),
      note: `one at a time; median of ${runs} runs of ${ops * 5}`,
    },
    rate('create', 'create, in process, 1 at a time', '>= 60 %'),
    rate('transition', 'transition, in process, 1 at a time', '>= 60 %'),
    rate('create16', 'create, in process, 16 at once', '>= 150 %', syncs('createSyncs')),
    rate('transition16', 'transition, in process, 16 at once', '>= 150 %', syncs('transitionSyncs')),
    ...THROUGH.flatMap(([key, width]) =>
      ['', 'Cold'].map((when) =>
        rate(
          `${key}${when}`,
          `${LABELS[key]} over the socket, ${width === 1 ? '1 at a time' : '16 at once'}, ${when ? 'cold' : 'warm'}`,
          width === 1 ? '>= 60 %' : '>= 150 %',
          costNote(costs[`${key}${when}`]!),
        ),
      ),
    ),
    ...partRows(parts, raw),
  ];
}

/** A task file of typical size. */
export const CONTENT = `---\nschemaVersion: 1\nid: TASK-2026-01-01-001\ntitle: A task of typical size\n---\n\n${'Body text of a typical task. '.repeat(12)}\n`;

/** The raw rate of one durable write at a time: open, write, fsync, close, rename, open + fsync of the directory, ops/s. */
export async function rawRate(dir: string, ops: number): Promise<number> {
  await mkdir(dir, { recursive: true });
  const ms = await timeMs(async () => {
    for (let i = 0; i < ops; i++) {
      const temp = join(dir, `f${i}.md.tmp`);
      const file = await open(temp, 'w');
      await file.writeFile(CONTENT);
      await file.sync();
      await file.close();
      await rename(temp, join(dir, `f${i}.md`));
      const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
      await handle.sync();
      await handle.close();
    }
  });
  await rm(dir, { recursive: true, force: true });
  return (ops * 1000) / ms;
}

// --- internal ---

/** Renames of one file between two directories, nothing fsynced: the disk's metadata rate, ops/s. */
async function renameRate(dir: string, ops: number): Promise<number> {
  await mkdir(join(dir, 'a'), { recursive: true });
  await mkdir(join(dir, 'b'), { recursive: true });
  const file = await open(join(dir, 'a', 'f.md'), 'w');
  await file.writeFile(CONTENT);
  await file.close();
  const ms = await timeMs(async () => {
    for (let i = 0; i < ops; i++)
      await rename(join(dir, i % 2 ? 'b' : 'a', 'f.md'), join(dir, i % 2 ? 'a' : 'b', 'f.md'));
  });
  await rm(dir, { recursive: true, force: true });
  return (ops * 1000) / ms;
}

/** `store.create`, `ops` of them, `width` at a time, ops/s. */
async function createRate(store: Store, ops: number, width: number): Promise<number> {
  const ms = await timeMs(() =>
    inParallel(ops, width, (i) => store.create({ title: `Bench task ${i}`, createdBy: 'bench', body: CONTENT })),
  );
  return (ops * 1000) / ms;
}

/** `store.commit` moving tasks between backlog and ready, one lane per id, ops/s. */
async function transitionRate(store: Store, ids: readonly string[], ops: number): Promise<number> {
  const ms = await timeMs(() =>
    inParallel(ops, ids.length, (i) =>
      store.commit(
        ids[i % ids.length]!,
        (cur) => ({ task: cur.task, body: cur.body, status: cur.status === 'backlog' ? 'ready' : 'backlog' }),
        'bench',
      ),
    ),
  );
  return (ops * 1000) / ms;
}

/** The rows through the daemon's socket: key, width, and the kind of call. */
const THROUGH: readonly (readonly [string, number, 'dispatch' | 'block'])[] = [
  ['dispatch', 1, 'dispatch'],
  ['block', 1, 'block'],
  ['dispatch16', 16, 'dispatch'],
  ['block16', 16, 'block'],
];

const LABELS: Record<string, string> = {
  dispatch: 'svc_dispatch',
  block: 'svc_task_block/unblock',
  dispatch16: 'svc_dispatch',
  block16: 'svc_task_block/unblock',
};

/** What a call cost the daemon: medians of the runs. */
function costNote(runs: readonly Measured[]): string {
  const m = (pick: (x: Measured) => number) => median(runs.map(pick));
  return (
    `; daemon CPU ${m((x) => x.cpuMs).toFixed(2)} ms a change (${m((x) => x.loopMs).toFixed(2)} ms on its event loop)` +
    `, ${m((x) => x.syncs).toFixed(2)} directory fsyncs a change`
  );
}

function pct(ratio: number): string {
  return `${Math.round(ratio * 100)} %`;
}
