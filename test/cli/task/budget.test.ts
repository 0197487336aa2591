import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BudgetFigures } from '../../../lib/core/events.js';
import { pauseForBudget } from '../../../lib/store/changes/budget.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { APPROVAL_TOOLS } from '../../../lib/tools/approval.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../../lib/tools/operator.js';
import { writeOrg } from '../../helpers/agents.js';
import { svc } from '../../helpers/cli.js';
import { closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

// svc task create --budget-*, svc task approve --budget-*, svc task list --awaiting for a budget wait.

/** A root whose org chart has agent dev (with `budget`, when given). */
function setUp(root = tempRoot(), budget?: Record<string, number>): string {
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', ...(budget ? { budget } : {}) }],
    aof: { daemon: { bootWindowMs: 200, pollIntervalMs: 3_600_000 } },
  });
  return root;
}

/** A task of dev with a budget of $2, claimed, whose runs used $2.40: paused for its budget (or for `spent`). */
async function paused(root: string, spent?: BudgetFigures): Promise<string> {
  const created = await svc(root, 'task', 'create', 'Costly', '--agent', 'dev', '--budget-usd', '2', '--json');
  const id = (JSON.parse(created.stdout) as { id: string }).id;
  assert.is((await svc(root, 'task', 'promote', id)).code, 0);
  const session = /session ([0-9a-f-]+)/.exec((await svc(root, 'task', 'claim', id, '--agent', 'dev')).stdout)![1]!;
  const store = createStore({ root });
  const usage = {
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: spent ? 0.5 : 2.4,
    runs: 1,
  };
  await store.commit(
    id,
    (current) => ({
      task: { ...current.task, metadata: { ...current.task.metadata, usage } },
      body: current.body,
      status: current.status,
    }),
    'test',
  );
  const figures = spent ?? ({ scope: 'task', id, limit: 2, spent: 2.4, unit: 'usd' } as const);
  assert.ok(await pauseForBudget(store, { taskId: id, sessionId: session, figures }));
  return id;
}

const create = suite('cli.task create --budget');
create.after.each(cleanRoots);

create(
  'keeps the budget in metadata.budget; a budget that is not a positive number is refused, nothing created',
  async () => {
    const root = setUp();
    const made = await svc(root, 'task', 'create', 'A', '--budget-usd', '2.5', '--budget-tokens', '500000', '--json');
    assert.is(made.code, 0, made.stderr);
    const id = (JSON.parse(made.stdout) as { id: string }).id;
    const shown = JSON.parse((await svc(root, 'task', 'show', id, '--json')).stdout) as {
      metadata: Record<string, unknown>;
    };
    assert.equal(shown.metadata.budget, { usd: 2.5, tokens: 500000 });
    for (const [flag, value, says] of [
      ['--budget-usd', '0', 'a number of dollars greater than 0'],
      ['--budget-usd', 'lots', 'a number of dollars greater than 0'],
      ['--budget-tokens', '1.5', 'a whole number of tokens'],
    ] as const) {
      const bad = await svc(root, 'task', 'create', 'B', flag, value);
      assert.is.not(bad.code, 0);
      assert.match(bad.stderr, `${flag} needs ${says}`);
    }
    const all = JSON.parse((await svc(root, 'task', 'list', '--all', '--json')).stdout) as unknown[];
    assert.is(all.length, 1);
    const raise = await svc(root, 'task', 'approve', id, '--budget-usd', '9');
    assert.is.not(raise.code, 0);
    assert.match(raise.stderr, `${id} does not wait for a budget`);
    const after = JSON.parse((await svc(root, 'task', 'show', id, '--json')).stdout) as {
      metadata: { budget: unknown };
    };
    assert.equal(after.metadata.budget, { usd: 2.5, tokens: 500000 });
  },
);

const approve = suite('cli.task approve --budget');
approve.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

approve(
  'an operator raises a paused task’s budget and it goes back to ready; too small a raise is refused',
  async () => {
    const root = setUp();
    const id = await paused(root);
    const listed = await svc(root, 'task', 'list', '--awaiting');
    assert.match(listed.stdout, new RegExp(`${id}\\s+budget: task\\s+\\d.* Costly`));
    const small = await svc(root, 'task', 'approve', id, '--budget-usd', '2.2');
    assert.is.not(small.code, 0);
    assert.match(small.stderr, `${id} has used $2.40 of $2.20 (--budget-usd)`);
    const ok = await svc(root, 'task', 'approve', id, '--budget-usd', '5');
    assert.is(ok.code, 0, ok.stderr);
    assert.match(
      ok.stdout,
      `${id} approved past its budget wait (task ${id} spent $2.40 of $2 (its budget)): back to ready`,
    );
    const shown = JSON.parse((await svc(root, 'task', 'show', id, '--json')).stdout) as {
      status: string;
      metadata: Record<string, unknown>;
    };
    assert.is(shown.status, 'ready');
    assert.equal(shown.metadata.budget, { usd: 5 });
    assert.is(shown.metadata.awaiting, undefined);
    assert.match((await svc(root, 'task', 'list', '--awaiting')).stdout, /no task waits/);
  },
);

approve('through a daemon: listed as awaiting, an agent cannot approve or unblock it, the operator can', async () => {
  const root = setUp();
  const id = await paused(root);
  await startTestDaemon(root, { tools: [...TOOLS, ...APPROVAL_TOOLS, ...OPERATOR_TOOLS], schedule: false });
  const rows = JSON.parse((await svc(root, 'task', 'list', '--awaiting', '--json')).stdout) as {
    id: string;
    budgetWait?: { scope: string; limit: number; spent: number };
  }[];
  assert.equal(
    rows.map((r) => [r.id, r.budgetWait?.scope, r.budgetWait?.limit, r.budgetWait?.spent]),
    [[id, 'task', 2, 2.4]],
  );
  const params = { taskId: id, actor: 'dev', budget: { usd: 50 } };
  const byAgent = await svc(root, 'tool', 'svc_task_approve', JSON.stringify(params));
  assert.is.not(byAgent.code, 0);
  assert.match(byAgent.stderr, /actor `dev` is an agent of the org chart/);
  const unblock = await svc(
    root,
    'tool',
    'svc_task_update',
    JSON.stringify({ taskId: id, status: 'ready', actor: 'dev' }),
  );
  assert.is.not(unblock.code, 0);
  assert.match(unblock.stderr, `${id} waits for a budget`);
  assert.is(
    TOOLS.some((tool) => tool.name === 'svc_task_approve'),
    false,
  );
  const ok = await svc(root, 'task', 'approve', id, '--budget-usd', '5', '--by', 'alice');
  assert.is(ok.code, 0, ok.stderr);
  const shown = JSON.parse((await svc(root, 'task', 'show', id, '--json')).stdout) as { status: string };
  assert.is(shown.status, 'ready');
});

approve(
  'a wait for an agent’s budget goes back only once the org chart leaves room; a task raise is refused',
  async () => {
    const root = setUp(tempRoot(), { tokensPerDay: 1000 });
    const id = await paused(root, {
      scope: 'agent',
      id: 'dev',
      limit: 1000,
      spent: 1200,
      unit: 'tokens',
      period: 'day',
    });
    const usage = {
      agent: 'dev',
      run: 's-1',
      inputTokens: 1200,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    };
    await createStore({ root }).events.record(new Date(), [
      {
        type: 'run.usage',
        actor: 'system',
        payload: { ...usage, runtime: 'codex', model: null, sessionId: null, costUsd: null },
      },
    ]);
    const raise = await svc(root, 'task', 'approve', id, '--budget-tokens', '9000');
    assert.is.not(raise.code, 0);
    assert.match(raise.stderr, `waits for the budget of agent dev (tokensPerDay), not its own`);
    assert.match(raise.stderr, 'Raise budget.tokensPerDay of agent dev in org/org-chart.yaml');
    const early = await svc(root, 'task', 'approve', id);
    assert.match(early.stderr, 'would wait again at once: agent dev spent 1,200 of 1,000 tokens today (tokensPerDay)');
    assert.is(JSON.parse((await svc(root, 'task', 'show', id, '--json')).stdout).status, 'blocked');
    setUp(root, { tokensPerDay: 5000 });
    const ok = await svc(root, 'task', 'approve', id);
    assert.is(ok.code, 0, ok.stderr);
    assert.is(JSON.parse((await svc(root, 'task', 'show', id, '--json')).stdout).status, 'ready');
  },
);

create.run();
approve.run();
