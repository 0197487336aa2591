import { hostname } from 'node:os';
import type { CAC } from 'cac';
import { createAdapterSet } from '../adapters/assemble.js';
import { isSvcError } from '../core/errors.js';
import { toTerminalText } from '../core/text.js';
import { requestDaemon, toDaemonError } from '../daemon/instance/client.js';
import type { Action } from '../engine/plan.js';
import { type SchedulerOptions, startScheduler } from '../engine/scheduler.js';
import { toBudgetHold } from '../engine/budgets/limits.js';
import { loadSpendLedger } from '../store/events/spend.js';
import { createListingSource } from '../engine/snapshot.js';
import { loadOrg, toDaemonSettings } from '../org/org-chart.js';
import type { Store } from '../store/commit/store.js';
import type { Context } from './frame/context.js';
import type { SchedulerResponse } from '../net/protocol/bodies.js';
import { ROUTES } from '../net/protocol/routes.js';
import { TOOLS } from '../tools/index.js';
import { createRuntimeWiring } from '../daemon/scheduling/runtime-wiring.js';

/** Registers `svc scheduler run [--active]`. */
export function registerScheduler(cli: CAC, ctx: Context): void {
  cli
    .command('run', 'Dry run: print what the scheduler would do now, changing nothing; --active dispatches')
    .option('--active', 'Dispatch for real (one tick)')
    .option('--json', 'Print the actions as JSON')
    .action(async (opts: Record<string, unknown>) => {
      const store = ctx.store();
      const viaDaemon = await askDaemon(store, { active: Boolean(opts.active) });
      const actions = viaDaemon ?? (opts.active ? await runActive(ctx, store) : await planOnce(ctx, store));
      if (opts.json) return ctx.json({ active: Boolean(opts.active), daemon: viaDaemon !== null, actions });
      actions.forEach((action) => ctx.print(toTerminalText(formatAction(action))));
      ctx.print(summarize(actions, { active: Boolean(opts.active) }) + (viaDaemon ? ' (by the running daemon)' : ''));
    });
}

// --- internal ---

/** With a daemon up, it plans or ticks from its index (and knows whether a plugin is attached); else null. */
async function askDaemon(store: Store, { active }: { active: boolean }): Promise<Action[] | null> {
  let reply: { status: number; body: unknown };
  try {
    reply = active
      ? await requestDaemon(store.paths.socket, ROUTES.schedulerTick)
      : await requestDaemon(store.paths.socket, ROUTES.schedulerPlan);
  } catch (err) {
    if (isSvcError(err, 'unavailable')) return null;
    throw err;
  }
  if (reply.status !== 200) throw toDaemonError(reply.status, reply.body);
  return (reply.body as SchedulerResponse).actions as Action[];
}

async function planOnce(ctx: Context, store: Store): Promise<Action[]> {
  const scheduler = startScheduler({
    store,
    source: createListingSource(store),
    adapters: {},
    loadOrg: () => loadOrg(ctx.root),
    mode: () => 'standalone',
    pluginAttached: () => false,
    log: () => undefined,
    alert: () => undefined,
    owner: { host: hostname(), pid: process.pid }, // this host: a task whose worktree is elsewhere is held
    budgetHold: await toBudgetHoldOf(store),
  });
  try {
    return await scheduler.preview();
  } finally {
    await scheduler.close();
  }
}

async function runActive(ctx: Context, store: Store): Promise<Action[]> {
  const root = ctx.root;
  const org = () => loadOrg(root);
  const chart = await org();
  const settings = toDaemonSettings(chart);
  const runtime = createRuntimeWiring({
    store,
    org: () => chart,
    log: (line) => ctx.io.stderr(`${line}\n`),
    budgets: {
      ledger: await loadSpendLedger(store.paths.root, store.clock()),
      alert: (text) => ctx.io.stderr(`${text}\n`),
    },
  });
  const { command, standalone } = createAdapterSet({
    paths: store.paths,
    loadOrg: org,
    env: ctx.io.env,
    settings: () => settings,
    spawnTimeoutMs: settings.spawnTimeoutMs,
    svcTools: TOOLS.map((tool) => tool.name),
    runtimeHooks: runtime.hooks,
    token: () => ctx.io.env.SVC_GATEWAY_TOKEN,
  });
  const scheduler = startScheduler({
    store,
    source: createListingSource(store),
    adapters: { command, standalone },
    loadOrg: org,
    mode: () => 'standalone',
    pluginAttached: () => false,
    log: (line) => ctx.io.stderr(`${line}\n`),
    alert: (text) => ctx.io.stderr(`${text}\n`),
    owner: { host: hostname(), pid: process.pid },
    budgetHold: await toBudgetHoldOf(store),
  });
  const report = await scheduler.tick();
  await scheduler.idle();
  const running = scheduler.stats().activeRuns;
  if (running)
    ctx.io.stderr(
      `waiting for ${running} agent run${running === 1 ? '' : 's'} to end (each run's output ` +
        `goes to ${store.paths.logs}/runs/<task id>/; \`svc task logs <id>\` prints it)\n`,
    );
  await scheduler.close();
  await scheduler.drain();
  return report.actions;
}

function formatAction(action: Action): string {
  switch (action.kind) {
    case 'dispatch':
      return `dispatch    ${action.taskId} -> ${action.agent} (${action.adapter})`;
    case 'expire':
      return `expire      ${action.taskId}: lease of ${action.agent} expired at ${action.expiredAt}`;
    case 'deadletter':
      return `deadletter  ${action.taskId}: ${action.failures} failed dispatches`;
    case 'hold':
      return `hold        ${action.taskId}: ${action.reason}: ${action.detail}`;
  }
}

function summarize(actions: readonly Action[], { active }: { active: boolean }): string {
  const count = (kind: Action['kind']) => actions.filter((a) => a.kind === kind).length;
  const parts =
    `${count('dispatch')} to dispatch, ${count('hold')} held, ` +
    `${count('expire')} leases expired, ${count('deadletter')} to deadletter`;
  return active ? `tick: ${parts}` : `dry run: ${parts} (nothing changed)`;
}

/** The budget hold of a scheduler without a daemon: what each agent spent, read from this month's event log. */
async function toBudgetHoldOf(store: Store): Promise<NonNullable<SchedulerOptions['budgetHold']>> {
  const ledger = await loadSpendLedger(store.paths.root, store.clock());
  return (org, now) => toBudgetHold(ledger, { org, now });
}
