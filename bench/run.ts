// `npm run bench [-- --quick]`: runs each section and prints one table (progress goes to stderr).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable, type BenchOptions, type Row } from './measure.js';
import { benchBulk } from './bulk.js';
import { benchCli } from './cli.js';
import { benchDaemon } from './daemon.js';
import { benchScheduler } from './scheduler.js';
import { benchStartup } from './startup.js';
import { benchStore } from './store.js';
import { benchWeb } from './web.js';

/** A bench section: a name and a function returning table rows. Add daemon, scheduler, ... here. */
const SECTIONS: { name: string; run: (options: BenchOptions) => Promise<Row[]> }[] = [
  { name: 'startup', run: benchStartup },
  { name: 'store', run: benchStore },
  // The daemon section's in-process listing probe runs before any 100,000-file tree is written and
  // removed: for a minute or more after that, the same listing peaked about 20 MiB higher.
  { name: 'daemon', run: benchDaemon },
  { name: 'cli', run: benchCli },
  { name: 'scheduler', run: benchScheduler },
  { name: 'web', run: benchWeb },
  { name: 'bulk', run: benchBulk },
];

const repo = fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
const only = process.argv.find((arg) => arg.startsWith('--section='))?.slice('--section='.length);
// The system temp directory, like a user's ~/.svc: a repository checkout may sit on a watched or
// network folder whose directory operations cost several times more.
const tmp = join(tmpdir(), `svc-bench-${process.pid}`);
const log = (text: string) => process.stderr.write(`${text}\n`);

mkdirSync(tmp, { recursive: true });
process.stdout.write(`${describeMachine()}\n\n`);
const rows: Row[] = [];
let failed = false;
try {
  for (const section of SECTIONS) {
    if (only && section.name !== only) continue;
    log(`bench: ${section.name}${quick ? ' (quick)' : ''}`);
    try {
      const got = await section.run({ quick, repo, tmp, log });
      rows.push(...got);
      // Each section's rows also go to stderr as it ends: a later section's failure loses nothing.
      printTable(got, (text) => process.stderr.write(text));
    } catch (error) {
      failed = true;
      log(`bench: section ${section.name} failed: ${(error as Error).stack ?? String(error)}`);
      rows.push({
        section: section.name,
        metric: 'failed',
        value: '-',
        note: String((error as Error).message ?? error),
      });
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
printTable(rows, (text) => process.stdout.write(text));
process.stdout.write(`\n${describeLoad('at the end')}\n`);
if (failed) process.exitCode = 1;

function describeMachine(): string {
  const disk = execFileSync('df', ['-h', tmp], { encoding: 'utf8' }).trim().split('\n').at(-1)!.split(/\s+/);
  return [
    `node ${process.version}, ${availableParallelism()} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory`,
    `disk: ${disk[0]} (${disk[1]}, ${disk[4]} used), bench files under ${tmp}`,
    quick ? 'mode: --quick (smaller sizes)' : 'mode: full',
    describeLoad('at the start'),
  ].join('\n');
}

/** The load average (1, 5 and 15 minutes): the machine may be shared, and the figures depend on it. */
function describeLoad(when: string): string {
  return `load average ${when}: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')} (${availableParallelism()} CPUs)`;
}
