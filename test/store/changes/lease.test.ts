import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { completeTask } from '../../../lib/store/changes/gates/complete.js';
import { blockTask, cancelTask, setStatus } from '../../../lib/store/changes/ops.js';
import { claimTask, closeTask, updateTask, updateTaskAsOperator } from '../../../lib/store/changes/work.js';
import type { Store } from '../../../lib/store/commit/store.js';
import { cleanRoots } from '../../helpers/root.js';
import { inProgressTask, rejects, setup, snapshot } from '../../tools/helpers.js';

const noFlow = async () => {
  throw new Error('no workflow in these tests');
};

/** Every path that moves (or rewrites) a task, as `actor`, optionally naming `sessionId`. */
const MOVES: Record<string, (store: Store, id: string, actor: string, sessionId?: string) => Promise<unknown>> = {
  'setStatus ready': (store, id, actor, sessionId) => setStatus(store, id, { to: 'ready', actor, sessionId }),
  'setStatus blocked': (store, id, actor, sessionId) => setStatus(store, id, { to: 'blocked', actor, sessionId }),
  blockTask: (store, id, actor, sessionId) => blockTask(store, id, { actor, sessionId, reason: 'keys' }),
  cancelTask: (store, id, actor, sessionId) => cancelTask(store, id, { actor, sessionId }),
  closeTask: (store, id, actor, sessionId) => closeTask(store, id, { actor, sessionId }),
  updateTaskAsOperator: (store, id, actor, sessionId) =>
    updateTaskAsOperator(store, id, { actor, sessionId, body: 'rewritten' }),
  'updateTask (svc_task_update)': (store, id, actor, sessionId) =>
    updateTask(store, id, { actor, sessionId, status: 'ready' }),
  'completeTask (svc_task_complete)': (store, id, actor, sessionId) =>
    completeTask(store, id, { actor, sessionId, loadFlow: noFlow }),
};

const rule = suite('store.assertLeaseAllows');
rule.after.each(cleanRoots);

rule(
  'every moving path refuses a live lease held by another agent, naming holder, expiry and the command that works, and changes nothing',
  async () => {
    for (const [name, move] of Object.entries(MOVES)) {
      if (name === 'cancelTask') continue; // no lease condition: see the next test
      const { root, store } = setup();
      const { id, sessionId } = await inProgressTask(store, { agent: 'dev' });
      const before = snapshot(root);
      const retry = (taskId: string, session: string) => `svc task close ${taskId} --session ${session}`;
      const error = await rejects(
        name === 'closeTask' ? closeTask(store, id, { actor: 'operator', retry }) : move(store, id, 'operator'),
        'lease_held',
        'Task has active lease',
        id,
        'agent dev',
        sessionId,
        '2026-11-21T10:10:00.000Z',
        'operator does not hold it',
      );
      if (name === 'closeTask')
        assert.ok(error.hint?.includes(`svc task close ${id} --session ${sessionId}`), error.hint);
      else assert.ok(error.hint?.includes(sessionId), `${name}: ${error.hint}`);
      assert.equal(snapshot(root), before, `${name} changed nothing`);
    }
  },
);

rule(
  "a cancel has no lease condition: the operator cancels a task another agent holds, and the holder's next call is stale_session",
  async () => {
    const { store } = setup();
    const { id, sessionId } = await inProgressTask(store, { agent: 'dev' });
    const result = await cancelTask(store, id, { actor: 'operator', reason: 'runaway' });
    assert.equal(
      [result.after.status, result.after.task.lease, result.after.task.metadata.cancelReason],
      ['cancelled', undefined, 'runaway'],
    );
    await rejects(
      updateTask(store, id, { actor: 'dev', sessionId, body: 'still working' }),
      'stale_session',
      sessionId,
      id,
      'status cancelled',
    );
  },
);

rule('the holder moves its own task: by its agent id, or by naming its session', async () => {
  for (const [name, move] of Object.entries(MOVES)) {
    for (const how of ['actor', 'session'] as const) {
      const { store } = setup();
      const { id, sessionId } = await inProgressTask(store, { agent: 'dev' });
      await (how === 'actor' ? move(store, id, 'dev') : move(store, id, 'operator', sessionId));
      const after = await store.get(id);
      if (name.startsWith('updateTaskAsOperator')) assert.match(after.body, /rewritten/, `${name} by ${how}`);
      else assert.is.not(after.status, 'in-progress', `${name} by ${how}`);
    }
  }
});

rule('a session that does not hold the task is stale, even for its agent', async () => {
  const { store } = setup();
  const { id } = await inProgressTask(store, { agent: 'dev' });
  for (const move of Object.values(MOVES))
    await rejects(move(store, id, 'dev', 'some-old-session'), 'stale_session', 'some-old-session', id);
});

rule('an expired lease no longer protects the task', async () => {
  const { store, clock } = setup();
  const { id } = await inProgressTask(store, { agent: 'dev' });
  clock.advance(11 * 60_000);
  const result = await cancelTask(store, id, { actor: 'operator' });
  assert.is(result.after.status, 'cancelled');
});

const claim = suite('store.claimTask');
claim.after.each(cleanRoots);

claim(
  'the operator claims, then closes and updates its own lease without naming it; another agent cannot',
  async () => {
    const { store } = setup();
    const created = await store.create({ title: 'Mine', status: 'ready', createdBy: 'test' });
    const id = created.task.id;
    const claimed = await claimTask(store, id, { actor: 'operator' });
    assert.equal([claimed.after.task.lease?.agent, claimed.after.status], ['operator', 'in-progress']);
    await rejects(closeTask(store, id, { actor: 'dev' }), 'lease_held', 'held by agent operator');
    await updateTaskAsOperator(store, id, { actor: 'operator', body: 'notes' });
    const closed = await closeTask(store, id, { actor: 'operator' });
    assert.equal([closed.before.status, closed.after.status], ['in-progress', 'done']);
  },
);

rule.run();
claim.run();
