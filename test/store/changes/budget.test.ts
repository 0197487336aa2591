import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BudgetFigures } from '../../../lib/core/events.js';
import { toAwaiting } from '../../../lib/store/changes/approval.js';
import { toListRow } from '../../../lib/store/listing/task-row.js';
import { approveBudget, pauseForBudget } from '../../../lib/store/changes/budget.js';
import { claimTask } from '../../../lib/store/changes/work.js';
import { recordFailure } from '../../../lib/store/changes/dispatch.js';
import { cancelTask, unblockTask } from '../../../lib/store/changes/ops.js';
import type { Store } from '../../../lib/store/commit/store.js';
import { cleanRoots } from '../../helpers/root.js';
import { rejects, setup } from '../../tools/helpers.js';

const figures: BudgetFigures = { scope: 'task', id: '', limit: 2, spent: 2.4, unit: 'usd' };

/** A task in progress with a budget and the usage its earlier runs recorded. */
async function leased(store: Store, metadata: Record<string, unknown>) {
  const created = await store.create({
    title: 'Costly',
    status: 'ready',
    routing: { agent: 'dev' },
    createdBy: 'test',
    metadata,
  });
  const claimed = await claimTask(store, created.task.id, { actor: 'test', agent: 'dev' });
  return { id: created.task.id, sessionId: claimed.after.task.lease!.sessionId };
}

const pause = suite('store.pauseForBudget');
pause.after.each(cleanRoots);

pause(
  'blocks the task the run holds, awaiting the budget, lease cleared, budget.exceeded then task.blocked',
  async () => {
    const { store, events, clock } = setup();
    const { id, sessionId } = await leased(store, { budget: { usd: 2 } });
    const after = await pauseForBudget(store, { taskId: id, sessionId, figures: { ...figures, id } });
    assert.is(after?.status, 'blocked');
    const stored = await store.get(id);
    assert.is(stored.status, 'blocked');
    assert.is(stored.task.lease, undefined);
    assert.equal(stored.task.metadata.awaiting, { kind: 'budget', ...figures, id, since: clock().toISOString() });
    assert.match(String(stored.task.metadata.blockReason), `budget spent: task ${id} spent $2.40 of $2 (its budget)`);
    const types = (await events()).map((e) => e.type).slice(-3);
    assert.equal(types, ['task.transitioned', 'budget.exceeded', 'task.blocked']);
    assert.is(stored.task.metadata.dispatchFailures, undefined);
  },
);

pause('leaves a task the run no longer holds; the run’s end after a pause is no failed dispatch', async () => {
  const { store } = setup();
  const { id, sessionId } = await leased(store, {});
  assert.is(await pauseForBudget(store, { taskId: id, sessionId: 'other', figures: { ...figures, id } }), null);
  assert.is((await store.get(id)).status, 'in-progress');
  await pauseForBudget(store, { taskId: id, sessionId, figures: { ...figures, id } });
  const failure = { reason: 'ended_without_completion' } as const;
  assert.is(await recordFailure(store, { taskId: id, sessionId, agent: 'dev', failure }), null);
  const stored = await store.get(id);
  assert.is(stored.status, 'blocked');
  assert.is(stored.task.metadata.dispatchFailures, undefined);
});

pause(
  'the wait is listed as a budget wait, never as an approval gate (alerts and metrics count only those)',
  async () => {
    const { store } = setup();
    const { id, sessionId } = await leased(store, {});
    await pauseForBudget(store, { taskId: id, sessionId, figures: { ...figures, id } });
    const stored = await store.get(id);
    const row = toListRow(stored);
    assert.is(row.awaiting, undefined);
    assert.is(toAwaiting(stored), null);
    assert.equal([row.budgetWait?.scope, row.budgetWait?.spent], ['task', 2.4]);
  },
);

const approve = suite('store.approveBudget');
approve.after.each(cleanRoots);

approve('a raise above what was used sends the task back to ready with the new budget, awaiting cleared', async () => {
  const { store, events } = setup();
  const usage = { inputTokens: 100, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 2.4, runs: 1 };
  const { id, sessionId } = await leased(store, { budget: { usd: 2, tokens: 1000 }, usage });
  await pauseForBudget(store, { taskId: id, sessionId, figures: { ...figures, id } });
  const after = await approveBudget(store, id, { actor: 'operator', raise: { usd: 5 } });
  assert.is(after.status, 'ready');
  assert.equal(after.task.metadata.budget, { usd: 5, tokens: 1000 });
  assert.equal(
    ['awaiting', 'blockReason', 'blockedFrom'].map((key) => after.task.metadata[key]),
    [undefined, undefined, undefined],
  );
  assert.equal(after.task.metadata.usage, usage);
  const last = (await events()).slice(-3).map((e) => [e.type, e.actor]);
  assert.equal(last, [
    ['task.transitioned', 'operator'],
    ['task.updated', 'operator'],
    ['task.unblocked', 'operator'],
  ]);
});

approve('a raise that what was used reaches already is refused with how much, and changes nothing', async () => {
  const { store } = setup();
  const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 2.4 };
  const { id, sessionId } = await leased(store, { budget: { usd: 2 }, usage });
  await pauseForBudget(store, { taskId: id, sessionId, figures: { ...figures, id } });
  const error = await rejects(
    approveBudget(store, id, { actor: 'operator', raise: { usd: 2.2 } }),
    'validation_error',
    `${id} has used $2.40 of $2.20 (--budget-usd)`,
  );
  assert.match(error.hint ?? '', `svc task approve ${id} --budget-usd <more>`);
  await rejects(approveBudget(store, id, { actor: 'operator' }), 'validation_error', '$2.40 of $2 ');
  assert.is((await store.get(id)).status, 'blocked');
});

approve('a task that waits for no budget is refused; unblock cannot bypass the wait, cancel ends it', async () => {
  const { store } = setup();
  const { id, sessionId } = await leased(store, {});
  await rejects(approveBudget(store, id, { actor: 'operator' }), 'invalid_transition', 'does not wait for a budget');
  await pauseForBudget(store, { taskId: id, sessionId, figures: { ...figures, id } });
  await rejects(unblockTask(store, id, { actor: 'dev' }), 'invalid_transition', 'waits for a budget');
  await cancelTask(store, id, { actor: 'operator' });
  assert.is((await store.get(id)).status, 'cancelled');
});

pause.run();
approve.run();
