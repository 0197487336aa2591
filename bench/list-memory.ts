import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatNumber, median, type Row } from './measure.js';

/**
 * Memory of an in-process `store.list()` of a tree: in a fresh `node` process (default flags, the
 * built `dist/`, no TypeScript loader), the RSS and heap before the call, the peak RSS of the
 * process, and the heap the listing keeps once garbage is collected. Median of 3 processes.
 */
export function benchListMemory(root: string, count: number): Row[] {
  const store = fileURLToPath(new URL('../dist/store/commit/store.js', import.meta.url));
  const n = count.toLocaleString('en');
  if (!existsSync(store))
    return [
      {
        section: 'daemon',
        metric: `store.list() memory, ${n} tasks`,
        value: 'n/a',
        note: 'dist/ is missing: run `npm run bench` (it builds first)',
      },
    ];
  const runs = [0, 1, 2].map(
    () =>
      JSON.parse(
        execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', PROBE, store, root], {
          encoding: 'utf8',
        }),
      ) as Probe,
  );
  const of = (pick: (run: Probe) => number) => median(runs.map(pick)) / 2 ** 20;
  if (runs.some((run) => run.listed !== count))
    throw new Error(`bench: store.list() listed ${runs.map((run) => run.listed).join(', ')} of ${count} tasks`);
  const method = 'a fresh node process (default flags, built dist/), median of 3';
  return [
    {
      section: 'daemon',
      metric: `store.list() peak RSS, ${n} tasks`,
      value: formatNumber(
        of((run) => run.peakRss),
        'MiB',
      ),
      note: `peak resident memory of the process; ${formatNumber(
        of((run) => run.rssBefore),
        'MiB',
      )} before the call, with the store loaded; ${method} (AOF's list of 10,000 measured 133 MiB)`,
    },
    {
      section: 'daemon',
      metric: `store.list() RSS growth, ${n} tasks`,
      value: formatNumber(
        of((run) => run.peakRss - run.rssBefore),
        'MiB',
      ),
      note: `peak RSS less RSS before the call; ${method}`,
    },
    {
      section: 'daemon',
      metric: `store.list() heap growth, ${n} tasks`,
      value: formatNumber(
        of((run) => run.heapAfter - run.heapBefore),
        'MiB',
      ),
      note: `heap used right after the call less before (garbage not yet collected); ${formatNumber(
        of((run) => run.heapKept - run.heapBefore),
        'MiB',
      )} kept by the listing once collected; ${method}`,
    },
  ];
}

// --- internal ---

interface Probe {
  listed: number;
  rssBefore: number;
  peakRss: number;
  heapBefore: number;
  heapAfter: number;
  heapKept: number;
}

/** Run as `node -e PROBE <dist/store/commit/store.js> <root>`: prints a `Probe` as JSON. */
const PROBE = `
const { createStore } = await import(process.argv[1]);
const store = createStore({ root: process.argv[2] });
globalThis.gc();
const before = process.memoryUsage();
const listing = await store.list();
const heapAfter = process.memoryUsage().heapUsed;
const peakRss = process.resourceUsage().maxRSS * 1024;
globalThis.gc();
const heapKept = process.memoryUsage().heapUsed;
console.log(JSON.stringify({ listed: listing.tasks.length, rssBefore: before.rss, peakRss, heapBefore: before.heapUsed, heapAfter, heapKept }));
`;
