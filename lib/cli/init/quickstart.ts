import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { CAC } from 'cac';
import { SvcError } from '../../core/errors.js';
import { templatePath } from '../../core/package-root.js';
import { STATUSES } from '../../core/status.js';
import type { Store } from '../../store/commit/store.js';
import { toBoardLines } from '../board/command.js';
import type { Context } from '../frame/context.js';
import { toListRow } from '../../store/listing/task-row.js';
import { startDaemonProcess, stopDaemonProcess } from '../daemon/command.js';

const AGENT = templatePath('quickstart', 'agent.mjs');

/** Registers `svc quickstart`: a sample workspace whose tasks flow to done with no gateway. */
export function registerQuickstart(cli: CAC, ctx: Context): void {
  cli
    .command(
      'quickstart',
      'Create a sample workspace (two local agents), start the daemon and watch tasks flow to done',
    )
    .option('--keep-running', 'Leave the daemon running afterwards')
    .option('--timeout <seconds>', 'Give up after this long (a positive number of seconds)', { default: 120 })
    .action(async (opts: { keepRunning?: boolean; timeout?: unknown }) => {
      const timeoutS = toTimeout(opts.timeout);
      const store = ctx.store();
      writeWorkspace(ctx, store);
      const started = await startDaemonProcess(ctx);
      try {
        const ids = await createSampleTasks(store);
        ctx.print(`\nCreated ${ids.length} tasks; the daemon dispatches them to the sample agents:\n`);
        await follow(ctx, store, { ids, timeoutMs: timeoutS * 1000 });
      } finally {
        if (started && !opts.keepRunning) await stopDaemonProcess(ctx, { force: false });
      }
      if (opts.keepRunning || !started)
        ctx.print('The daemon is still running: `svc board`, `svc daemon status`, `svc daemon stop`.');
    });
}

// --- internal ---

/** `--timeout`: a positive number of seconds, at most a day. */
function toTimeout(value: unknown): number {
  const seconds = typeof value === 'number' ? value : Number(String(value ?? '').trim() || NaN);
  if (Number.isFinite(seconds) && seconds > 0 && seconds <= 86_400) return seconds;
  throw new SvcError(
    'validation_error',
    `--timeout must be a number of seconds between 0 and 86400; got ${JSON.stringify(value)}.`,
    'For example: svc quickstart --timeout 300',
  );
}

/**
 * Writes the org chart and workflow of the sample. A file that is already there and differs from
 * what the sample would write (another setup, or the sample edited) is never overwritten.
 */
function writeWorkspace(ctx: Context, store: Store): void {
  const { orgChart, workflows } = store.paths;
  const chart = readFileSync(templatePath('quickstart', 'org-chart.yaml'), 'utf8')
    .replaceAll('{{NODE}}', process.execPath)
    .replaceAll('{{AGENT}}', AGENT);
  const workflow = readFileSync(templatePath('workflows', 'implement-review.yaml'), 'utf8');
  const files: [string, string][] = [
    [orgChart, chart],
    [`${workflows}/implement-review.yaml`, workflow],
  ];
  for (const [file, text] of files) assertSampleOrAbsent(file, text);
  mkdirSync(workflows, { recursive: true });
  for (const [file, text] of files) writeFileSync(file, text);
  ctx.print(`Workspace: ${store.paths.root}`);
  ctx.print(`  org chart ${orgChart} (agents implementer and reviewer run ${AGENT})`);
}

/** Throws unless `file` is absent or holds exactly `text`, naming the first line that differs. */
function assertSampleOrAbsent(file: string, text: string): void {
  if (!existsSync(file)) return;
  const found = readFileSync(file, 'utf8');
  if (found === text) return;
  const [mine, theirs] = [text.split('\n'), found.split('\n')];
  const line = mine.findIndex((row, i) => row !== theirs[i]);
  const at = line === -1 ? theirs.length : line + 1;
  throw new SvcError(
    'validation_error',
    `${file} already exists and differs from the quickstart's sample (first difference at line ${at}: yours is ` +
      `${quoteLine(theirs[at - 1])}, the sample's is ` +
      `${quoteLine(mine[at - 1])}); the quickstart does not overwrite it.`,
    `Keep it and run your own setup with \`svc daemon start\`; or move it aside (mv ${file} ${file}.mine) ` +
      `and rerun; or run the sample in a fresh home: SVC_HOME=/tmp/svc-quickstart svc quickstart`,
  );
}

/** A line quoted as JSON (control characters escaped), or `the end of the file` past its last line. */
function quoteLine(line: string | undefined): string {
  return line === undefined ? 'the end of the file' : JSON.stringify(line);
}

async function createSampleTasks(store: Store): Promise<string[]> {
  const gate = { workflow: 'implement-review', current: 'implement', history: [] };
  const gated = (title: string, priority: 'normal' | 'high' | 'critical') =>
    store.create({
      title,
      priority,
      status: 'ready',
      routing: { workflow: 'implement-review' },
      gate,
      createdBy: 'quickstart',
      body: `${title}, then have it reviewed.`,
    });
  const parse = await gated('Parse the config file', 'high');
  const cli = await gated('Add a --verbose flag', 'normal');
  const hotfix = await gated('Fix the crash on empty input', 'critical');
  const docs = await store.create({
    title: 'Document the new flag',
    status: 'ready',
    routing: { agent: 'implementer' },
    dependsOn: [cli.task.id],
    createdBy: 'quickstart',
    body: 'Write the docs once the flag has landed.',
  });
  return [parse, cli, hotfix, docs].map((t) => t.task.id);
}

/** Prints a line each time the counts change, then the board, until every task is done. */
async function follow(
  ctx: Context,
  store: Store,
  { ids, timeoutMs }: { ids: readonly string[]; timeoutMs: number },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const mine = await Promise.all(ids.map((id) => store.get(id))); // its own tasks only, not a scan of the tree
    const counts = STATUSES.map((status) => [status, mine.filter((t) => t.status === status).length] as const).filter(
      ([, n]) => n > 0,
    );
    const line = counts.map(([status, n]) => `${status} ${n}`).join(', ');
    if (line !== last) ctx.print(`  ${new Date().toISOString().slice(11, 19)}  ${(last = line)}`);
    if (mine.every((t) => t.status === 'done')) break;
    if (Date.now() > deadline) {
      throw new SvcError(
        'unavailable',
        `The sample tasks did not all finish within ${timeoutMs / 1000} s (${line}).`,
        `See ${store.paths.daemonLog} and ${store.paths.logs}/agents.log.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  ctx.print('');
  toBoardLines(ctx, (await Promise.all(ids.map((id) => store.get(id)))).map(toListRow)).forEach((text) =>
    ctx.print(text),
  );
  ctx.print(`\nAll ${ids.length} tasks are done. Events: ${store.paths.events}/`);
}
