import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { claimTask } from '../../lib/store/changes/work.js';
import { cleanRoots } from '../helpers/root.js';
import { inProgressTask, ORG_CHART, rejects, setup, snapshot, WORKFLOW } from './helpers.js';

const complete = suite('tools.svc_task_complete');
complete.after.each(cleanRoots);

const gated = () => setup({ org: ORG_CHART, workflows: { 'implement-review': WORKFLOW } });

complete('moves an in-progress task without a workflow to done and returns {taskId, status}', async () => {
  const { call, store, committed, events } = setup();
  const { id, sessionId } = await inProgressTask(store);
  const result = await call('svc_task_complete', {
    taskId: id.slice(0, 18),
    summary: 'Shipped it.',
    actor: 'dev',
    sessionId,
  });
  assert.equal(result, { taskId: id, status: 'done' });
  const stored = await store.get(id);
  assert.is(stored.status, 'done');
  assert.is(stored.task.lease, undefined);
  assert.match(stored.body, /## Completion summary\n\nShipped it\./);
  assert.equal(committed, [[id]]);
  const done = (await events()).find((e) => e.type === 'task.completed');
  assert.is(done!.actor, 'dev');
});

complete(
  'a summary or blocker with a NUL character is refused like a title or body with one, changing nothing',
  async () => {
    const { call, store, root } = gated();
    const { id, sessionId } = await inProgressTask(store, { workflow: 'implement-review' });
    const before = snapshot(root);
    const error = await rejects(
      call('svc_task_complete', { taskId: id, outcome: 'complete', summary: 'done\0', actor: 'dev', sessionId }),
      'validation_error',
      'Summary contains a NUL character (at offset 4)',
    );
    assert.is(error.hint, 'Remove the NUL character from the summary.');
    await rejects(
      call('svc_task_complete', {
        taskId: id,
        outcome: 'needs_review',
        blockers: ['fine', 'a\0b'],
        actor: 'dev',
        sessionId,
      }),
      'validation_error',
      'Blocker contains a NUL character (at offset 1)',
    );
    assert.equal(snapshot(root), before);
  },
);

complete('refuses a task that is not in progress', async () => {
  const { call, store, root } = setup();
  const { task } = await store.create({ title: 'Waiting', createdBy: 'test' });
  const before = snapshot(root);
  await rejects(call('svc_task_complete', { taskId: task.id }), 'invalid_transition', task.id, 'backlog');
  assert.equal(snapshot(root), before);
});

complete('teaches the call with outcome on a gated task without one, naming task, gate and role', async () => {
  const { call, store, root } = gated();
  const { id } = await inProgressTask(store, { workflow: 'implement-review' });
  const before = snapshot(root);
  const error = await rejects(
    call('svc_task_complete', { taskId: id, actor: 'dev' }),
    'outcome_required',
    id,
    'DAG workflow',
    'implement',
    'implementer',
    '`outcome`',
  );
  assert.ok(
    error.message.includes(`svc_task_complete({ taskId: "${id}", outcome: "complete" | "needs_review" | "blocked" })`),
    error.message,
  );
  assert.ok(error.hint?.includes('"needs_review" returns to the first gate'), error.hint);
  assert.equal(snapshot(root), before);
});

complete('requires blockers for needs_review and blocked', async () => {
  const { call, store, root } = gated();
  const { id } = await inProgressTask(store, { workflow: 'implement-review' });
  const before = snapshot(root);
  for (const outcome of ['needs_review', 'blocked']) {
    await rejects(
      call('svc_task_complete', { taskId: id, outcome, actor: 'dev' }),
      'blockers_required',
      id,
      outcome,
      '`blockers`',
    );
    await rejects(
      call('svc_task_complete', { taskId: id, outcome, blockers: [], actor: 'dev' }),
      'blockers_required',
      id,
    );
  }
  assert.equal(snapshot(root), before);
});

complete('advances a gated task to its next gate (ready) and completes the last gate (done)', async () => {
  const { call, store } = gated();
  const { id } = await inProgressTask(store, { workflow: 'implement-review' });
  assert.equal(
    await call('svc_task_complete', { taskId: id, outcome: 'complete', callerRole: 'implementer', actor: 'dev' }),
    { taskId: id, status: 'ready' },
  );
  assert.is((await store.get(id)).task.gate?.current, 'review');
  await claimTask(store, id, { actor: 'test', agent: 'lead' });
  assert.equal(
    await call('svc_task_complete', { taskId: id, outcome: 'complete', callerRole: 'reviewer', actor: 'lead' }),
    { taskId: id, status: 'done' },
  );
  const history = (await store.get(id)).task.gate?.history ?? [];
  assert.equal(
    history.map((h) => [h.gate, h.outcome]),
    [
      ['implement', 'complete'],
      ['review', 'complete'],
    ],
  );
});

complete('rejects to the origin gate with blockers recorded, and holds at the gate when blocked', async () => {
  const { call, store, clock } = gated();
  const { id } = await inProgressTask(store, { workflow: 'implement-review', agent: 'lead' });
  await store.commit(
    id,
    (cur) => ({
      task: { ...cur.task, gate: { workflow: 'implement-review', current: 'review', history: [] } },
      body: cur.body,
      status: cur.status,
    }),
    'test',
  );
  clock.advance(1000);
  const rejected = await call('svc_task_complete', {
    taskId: id,
    outcome: 'needs_review',
    blockers: ['tests missing'],
    actor: 'lead',
  });
  assert.equal(rejected, { taskId: id, status: 'ready' });
  const stored = await store.get(id);
  assert.is(stored.task.gate?.current, 'implement');
  assert.match(readFileSync(stored.path, 'utf8'), /- tests missing/);
});

complete("refuses a callerRole that is not the current gate's role", async () => {
  const { call, store } = gated();
  const { id } = await inProgressTask(store, { workflow: 'implement-review' });
  await rejects(
    call('svc_task_complete', { taskId: id, outcome: 'complete', callerRole: 'reviewer', actor: 'dev' }),
    'forbidden_role',
    id,
    'implementer',
    'reviewer',
  );
});

complete(
  'refuses an agent that is only a reviewer completing the implementer gate without callerRole, and leaves the task as it was',
  async () => {
    const { call, store, root } = gated();
    const { id } = await inProgressTask(store, { workflow: 'implement-review', agent: 'lead' });
    const before = snapshot(root);
    const error = await rejects(
      call('svc_task_complete', { taskId: id, outcome: 'complete', actor: 'lead' }),
      'forbidden_role',
      id,
      'gate `implement`',
      'role `implementer`',
      'agent `lead` holds role `reviewer`',
    );
    assert.ok(error.hint?.includes('implementer (dev)'), error.hint);
    assert.equal(snapshot(root), before);
  },
);

complete("lets an agent holding the gate's role complete it without callerRole", async () => {
  const { call, store, events } = gated();
  const { id } = await inProgressTask(store, { workflow: 'implement-review' });
  assert.equal(await call('svc_task_complete', { taskId: id, outcome: 'complete', actor: 'dev' }), {
    taskId: id,
    status: 'ready',
  });
  const gate = (await events()).find((e) => e.type === 'gate.transition');
  assert.is(gate!.payload?.roleNotChecked, undefined);
});

complete(
  'lets an actor that is not an agent (operator) complete a gate, and logs that the role was not checked',
  async () => {
    const { call, store, events } = gated();
    const { id, sessionId } = await inProgressTask(store, { workflow: 'implement-review', agent: 'lead' });
    assert.equal(await call('svc_task_complete', { taskId: id, outcome: 'complete', actor: 'operator', sessionId }), {
      taskId: id,
      status: 'ready',
    });
    const gate = (await events()).find((e) => e.type === 'gate.transition');
    assert.match(String(gate!.payload?.roleNotChecked), /actor operator is not an agent of the org chart/);
  },
);

complete('refuses a stale session and leaves the task as it was', async () => {
  const { call, store, root } = setup();
  const { id } = await inProgressTask(store);
  const before = snapshot(root);
  await rejects(
    call('svc_task_complete', { taskId: id, sessionId: 'old-session' }),
    'stale_session',
    'old-session',
    id,
  );
  assert.equal(snapshot(root), before);
});

complete('names the missing workflow file of a gated task', async () => {
  const { call, store } = setup();
  const { id } = await inProgressTask(store, { workflow: 'nowhere' });
  await rejects(call('svc_task_complete', { taskId: id, outcome: 'complete' }), 'not_found', 'nowhere');
});

complete('refuses a summary too large for the frontmatter', async () => {
  const { call, store, root } = setup();
  const { id } = await inProgressTask(store);
  const before = snapshot(root);
  await rejects(call('svc_task_complete', { taskId: id, summary: 's'.repeat(100_000) }), 'too_large', '`summary`');
  assert.equal(snapshot(root), before);
});

complete.run();
