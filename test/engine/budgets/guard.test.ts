import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Usage } from '../../../lib/core/usage.js';
import { createBudgetGuard } from '../../../lib/engine/budgets/guard.js';
import { createSpendLedger } from '../../../lib/store/events/spend.js';
import { validateOrg } from '../../../lib/org/org-chart.js';
import { claimTask } from '../../../lib/store/changes/work.js';
import type { Store } from '../../../lib/store/commit/store.js';
import { cleanRoots } from '../../helpers/root.js';
import { setup } from '../../tools/helpers.js';

const org = validateOrg(
  {
    schemaVersion: 1,
    agents: [
      { id: 'dev', name: 'Dev', runtime: 'claude-code', model: 'sonnet', budget: { usdPerDay: 20 } },
      { id: 'ops', name: 'Ops', runtime: 'claude-code', model: 'sonnet', team: 'core' },
    ],
    teams: [{ id: 'core', name: 'Core', budget: { tokensPerDay: 1000 } }],
    aof: { pricing: { sonnet: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 } } },
  },
  'test org',
);
const usage = (costUsd: number, tokens = 0): Usage => ({
  inputTokens: tokens,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd,
});

/** A guard over a real store on a temp root, its alerts and log lines kept, and a task in progress. */
async function guarded(metadata: Record<string, unknown> = {}, agent = 'dev') {
  const { store, clock, events } = setup();
  const alerts: string[] = [];
  const ledger = createSpendLedger();
  const guard = createBudgetGuard({
    store,
    org: () => org,
    ledger,
    alert: (text) => alerts.push(text),
    log: () => undefined,
    now: clock,
  });
  const run = await leased(store, metadata, agent);
  return { store, guard, ledger, alerts, run, clock, events };
}

async function leased(store: Store, metadata: Record<string, unknown>, agent: string) {
  const routing = { agent };
  const created = await store.create({ title: 'Costly "one"', status: 'ready', routing, createdBy: 'test', metadata });
  const claimed = await claimTask(store, created.task.id, { actor: 'test', agent });
  const sessionId = claimed.after.task.lease!.sessionId;
  return { taskId: created.task.id, sessionId, agent, runKey: `${sessionId}-1` };
}

const guard = suite('engine.budgets.createBudgetGuard');
guard.after.each(cleanRoots);

guard(
  'a task budget: one warning at 80 %, then at 100 % the task is paused, alerted and the run told to stop',
  async () => {
    const prior = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 1 };
    const { store, guard: g, alerts, run, events } = await guarded({ budget: { usd: 2 }, usage: prior });
    assert.is(await g.onRunUsage(run, usage(0.5)), 'continue');
    assert.is(await g.onRunUsage(run, usage(0.6)), 'continue');
    assert.is(await g.onRunUsage(run, usage(0.7)), 'continue');
    const warnings = (await events()).filter((e) => e.type === 'budget.warning');
    assert.equal(
      warnings.map((e) => e.payload),
      [{ scope: 'task', id: run.taskId, limit: 2, spent: 1.6, unit: 'usd' }],
    );
    assert.is(await g.onRunUsage(run, usage(1.05)), 'stop');
    const stored = await store.get(run.taskId);
    assert.is(stored.status, 'blocked');
    assert.equal(stored.task.metadata.awaiting, {
      kind: 'budget',
      scope: 'task',
      id: run.taskId,
      limit: 2,
      spent: 2.05,
      unit: 'usd',
      since: stored.task.updatedAt,
    });
    assert.equal(alerts[0]?.split('\n')[0], `[AOF] BUDGET: ${run.taskId} "Costly "one"" spent $2.05 of $2 (task)`);
    assert.match(alerts[0] ?? '', `svc task approve ${run.taskId} --budget-usd <more>`);
    assert.is(await g.onRunUsage(run, usage(1.2)), 'stop');
    assert.is(alerts.length, 1);
  },
);

guard('an agent’s daily budget counts its spend today and this run; the pause names the agent', async () => {
  const { store, guard: g, ledger, run, clock } = await guarded();
  ledger.record('dev', usage(15), clock());
  assert.is(await g.onRunUsage(run, usage(4.5)), 'continue');
  assert.equal(ledger.spentBy(['dev'], 'day', clock()).usd, 19.5);
  assert.is(await g.onRunUsage(run, usage(5)), 'stop');
  const awaiting = (await store.get(run.taskId)).task.metadata.awaiting as Record<string, unknown>;
  assert.equal([awaiting.scope, awaiting.id, awaiting.spent, awaiting.period], ['agent', 'dev', 20, 'day']);
});

guard('a team’s token budget counts every member; onRunEnd takes the run’s live usage out', async () => {
  const { guard: g, ledger, run, clock, alerts } = await guarded({}, 'ops');
  assert.is(await g.onRunUsage(run, usage(0, 600)), 'continue');
  g.onRunEnd(run);
  assert.equal(ledger.spentBy(['ops'], 'day', clock()), { usd: 0, tokens: 0 });
  ledger.record('ops', usage(0, 999), clock());
  assert.is(await g.onRunUsage(run, usage(0, 1)), 'stop');
  assert.match(alerts[0] ?? '', /spent 1,000 of 1,000 tokens \(team core tokensPerDay\)/);
});

guard('a run that no longer holds its task is told to stop, and the task is left as it is, with no alert', async () => {
  const { store, guard: g, run, alerts } = await guarded({ budget: { tokens: 10 } });
  assert.is(await g.onRunUsage({ ...run, sessionId: 'an-older-session' }, usage(0, 50)), 'stop');
  assert.is((await store.get(run.taskId)).status, 'in-progress');
  assert.equal(alerts, []);
});

guard.run();
