import { constants } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createStore } from '../lib/store/store.js';
import { formatNumber, median, timeMs, type BenchOptions, type Row } from './measure.js';

/**
 * The store section: creates/s and transitions/s with durable writes, beside the raw rate of
 * fsync'd write + rename + directory fsync on the same disk in the same run.
 */
export async function benchStore(options: BenchOptions): Promise<Row[]> {
  const ops = options.quick ? 100 : 500;
  const runs = options.quick ? 3 : 5;
  const rates = { raw: [] as number[], create: [] as number[], transition: [] as number[] };
  for (let run = 0; run < runs; run++) {
    // Interleaved, so a noisy neighbour slows all three alike.
    rates.raw.push(await rawRate(join(options.tmp, `raw-${run}`), ops));
    rates.create.push(await createRate(join(options.tmp, `create-${run}`), ops));
    rates.transition.push(await transitionRate(join(options.tmp, `move-${run}`), ops));
    options.log(`store: run ${run + 1}/${runs}: raw ${rates.raw.at(-1)!.toFixed(0)}/s, create ${rates.create.at(-1)!.toFixed(0)}/s, transition ${rates.transition.at(-1)!.toFixed(0)}/s`);
  }
  const raw = median(rates.raw);
  const create = median(rates.create);
  const transition = median(rates.transition);
  const of = `median of ${runs} runs of ${ops} ops`;
  return [
    { section: 'store', metric: 'raw fsync write+rename+dir fsync', value: formatNumber(raw, 'ops/s'), note: of },
    { section: 'store', metric: 'task create (durable)', value: formatNumber(create, 'ops/s'), note: `${of}; ${pct(create / raw)} of raw (target >= 60 %)` },
    { section: 'store', metric: 'task transition (durable)', value: formatNumber(transition, 'ops/s'), note: `${of}; ${pct(transition / raw)} of raw (target >= 60 %)` },
  ];
}

// --- internal ---

const CONTENT = `---\nschemaVersion: 1\nid: TASK-2026-01-01-001\ntitle: A task of typical size\n---\n\n${'Body text of a typical task. '.repeat(12)}\n`;

/** What `writeDurable` costs without the library: open, write, fsync, close, rename, fsync of the directory. */
/** The raw rate of fsync'd write + rename + directory fsync in `dir`, ops per second. */
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

async function createRate(root: string, ops: number): Promise<number> {
  const store = createStore({ root });
  await store.init();
  const ms = await timeMs(async () => {
    for (let i = 0; i < ops; i++) await store.create({ title: `Bench task ${i}`, createdBy: 'bench', body: CONTENT });
  });
  await rm(root, { recursive: true, force: true });
  return (ops * 1000) / ms;
}

/** Moves 50 tasks back and forth between backlog and ready (each move: write, rename, unlink, two directory fsyncs). */
async function transitionRate(root: string, ops: number): Promise<number> {
  const store = createStore({ root });
  const ids: string[] = [];
  for (let i = 0; i < 50; i++) ids.push((await store.create({ title: `Bench task ${i}`, createdBy: 'bench', body: CONTENT })).task.id);
  const ms = await timeMs(async () => {
    for (let i = 0; i < ops; i++) {
      await store.commit(ids[i % ids.length]!, (cur) => ({ task: cur.task, body: cur.body, status: cur.status === 'backlog' ? 'ready' : 'backlog' }), 'bench');
    }
  });
  await rm(root, { recursive: true, force: true });
  return (ops * 1000) / ms;
}

function pct(ratio: number): string {
  return `${Math.round(ratio * 100)} %`;
}
