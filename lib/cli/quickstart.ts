import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { CAC } from 'cac';
import { SvcError } from '../core/errors.js';
import { templatePath } from '../core/package-root.js';
import { STATUSES } from '../core/status.js';
import type { Store } from '../store/store.js';
import { toBoardLines } from './board.js';
import type { Context } from './context.js';
import { startDaemonProcess, stopDaemonProcess } from './daemon.js';

const AGENT = templatePath('quickstart', 'agent.mjs');

/** Registers `svc quickstart`: a sample workspace whose tasks flow to done with no gateway. */
export function registerQuickstart(cli: CAC, ctx: Context): void {
  cli.command('quickstart', 'Create a sample workspace (two local agents), start the daemon and watch tasks flow to done')
    .option('--keep-running', 'Leave the daemon running afterwards')
    .option('--timeout <seconds>', 'Give up after this long', { default: 120 })
    .action(async (opts: { keepRunning?: boolean; timeout?: number }) => {
      const store = ctx.store();
      writeWorkspace(ctx, store);
      const started = await startDaemonProcess(ctx);
      try {
        const ids = await createSampleTasks(store);
        ctx.print(`\nCreated ${ids.length} tasks; the daemon dispatches them to the sample agents:\n`);
        await follow(ctx, store, ids, Number(opts.timeout ?? 120) * 1000);
      } finally {
        if (started && !opts.keepRunning) await stopDaemonProcess(ctx, false);
      }
      if (opts.keepRunning || !started) ctx.print('The daemon is still running: `svc board`, `svc daemon status`, `svc daemon stop`.');
    });
}

// --- internal ---

/** Writes the org chart and workflow of the sample, unless an org chart of another setup is there. */
function writeWorkspace(ctx: Context, store: Store): void {
  const { orgChart, workflows } = store.paths;
  if (existsSync(orgChart) && !readFileSync(orgChart, 'utf8').includes(AGENT)) {
    throw new SvcError('validation_error', `${orgChart} already exists and is not the quickstart's.`, `Run the quickstart in a fresh home: SVC_HOME=/tmp/svc-quickstart svc quickstart`);
  }
  mkdirSync(workflows, { recursive: true });
  const chart = readFileSync(templatePath('quickstart', 'org-chart.yaml'), 'utf8').replaceAll('{{NODE}}', process.execPath).replaceAll('{{AGENT}}', AGENT);
  writeFileSync(orgChart, chart);
  writeFileSync(`${workflows}/implement-review.yaml`, readFileSync(templatePath('workflows', 'implement-review.yaml'), 'utf8'));
  ctx.print(`Workspace: ${store.paths.root}`);
  ctx.print(`  org chart ${orgChart} (agents implementer and reviewer run ${AGENT})`);
}

async function createSampleTasks(store: Store): Promise<string[]> {
  const gate = { workflow: 'implement-review', current: 'implement', history: [] };
  const gated = (title: string, priority: 'normal' | 'high' | 'critical') =>
    store.create({ title, priority, status: 'ready', routing: { workflow: 'implement-review' }, gate, createdBy: 'quickstart', body: `${title}, then have it reviewed.` });
  const parse = await gated('Parse the config file', 'high');
  const cli = await gated('Add a --verbose flag', 'normal');
  const hotfix = await gated('Fix the crash on empty input', 'critical');
  const docs = await store.create({
    title: 'Document the new flag', status: 'ready', routing: { agent: 'implementer' }, dependsOn: [cli.task.id], createdBy: 'quickstart',
    body: 'Write the docs once the flag has landed.',
  });
  return [parse, cli, hotfix, docs].map((t) => t.task.id);
}

/** Prints a line each time the counts change, then the board, until every task is done. */
async function follow(ctx: Context, store: Store, ids: readonly string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const mine = await Promise.all(ids.map((id) => store.get(id))); // its own tasks only, not a scan of the tree
    const counts = STATUSES.map((status) => [status, mine.filter((t) => t.status === status).length] as const).filter(([, n]) => n > 0);
    const line = counts.map(([status, n]) => `${status} ${n}`).join(', ');
    if (line !== last) ctx.print(`  ${new Date().toISOString().slice(11, 19)}  ${(last = line)}`);
    if (mine.every((t) => t.status === 'done')) break;
    if (Date.now() > deadline) {
      throw new SvcError('unavailable', `The sample tasks did not all finish within ${timeoutMs / 1000} s (${line}).`, `See ${store.paths.daemonLog} and ${store.paths.logs}/agents.log.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  ctx.print('');
  toBoardLines(await Promise.all(ids.map((id) => store.get(id)))).forEach((text) => ctx.print(text));
  ctx.print(`\nAll ${ids.length} tasks are done. Events: ${store.paths.events}/`);
}
