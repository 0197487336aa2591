import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanRoots } from '../helpers/root.js';
import { inProgressTask, rejects, setup, snapshot } from './helpers.js';

const cancel = suite('tools.svc_task_cancel');
cancel.after.each(cleanRoots);

cancel(
  "moves a task to cancelled with the reason logged and kept; naming the lease's session cancels a leased task",
  async () => {
    const { call, store, committed, events } = setup();
    const { id, sessionId } = await inProgressTask(store);
    const result = await call('svc_task_cancel', { taskId: id, reason: 'duplicate', actor: 'lead', sessionId });
    assert.equal(result, { taskId: id, status: 'cancelled', transitioned: true, reason: 'duplicate' });
    const stored = await store.get(id);
    assert.is(stored.task.metadata.cancelReason, 'duplicate');
    assert.is(stored.task.lease, undefined);
    assert.equal(committed, [[id]]);
    const cancelled = (await events()).find((e) => e.type === 'task.cancelled');
    assert.equal([cancelled!.actor, cancelled!.payload], ['lead', { reason: 'duplicate' }]);
  },
);

cancel(
  "cancels a task another agent holds without naming its lease; the holder's next call is stale_session",
  async () => {
    const { call, store } = setup();
    const { id, sessionId } = await inProgressTask(store, { agent: 'dev' });
    assert.equal(await call('svc_task_cancel', { taskId: id, actor: 'operator', reason: 'runaway' }), {
      taskId: id,
      status: 'cancelled',
      transitioned: true,
      reason: 'runaway',
    });
    await rejects(
      call('svc_task_update', { taskId: id, actor: 'dev', sessionId, body: 'more' }),
      'stale_session',
      sessionId,
    );
    await rejects(call('svc_task_complete', { taskId: id, actor: 'dev', sessionId }), 'stale_session', sessionId);
  },
);

cancel('takes a bare sequence (-001 or 001) as the task id when one task has it', async () => {
  const { call, store } = setup();
  const { task } = await store.create({ title: 'Short', createdBy: 'test' });
  assert.equal(await call('svc_task_cancel', { taskId: '-001' }), {
    taskId: task.id,
    status: 'cancelled',
    transitioned: true,
  });
  assert.equal(await call('svc_task_cancel', { taskId: '001' }), {
    taskId: task.id,
    status: 'cancelled',
    transitioned: false,
  });
});

cancel('is a no-op on a cancelled task and refused on a done one', async () => {
  const { call, store } = setup();
  const { task } = await store.create({ title: 'Gone', createdBy: 'test' });
  await call('svc_task_cancel', { taskId: task.id });
  assert.equal(await call('svc_task_cancel', { taskId: task.id }), {
    taskId: task.id,
    status: 'cancelled',
    transitioned: false,
  });
  const { task: done } = await store.create({ title: 'Done', createdBy: 'test' });
  await store.commit(done.id, (cur) => ({ task: cur.task, body: cur.body, status: 'done', cause: 'close' }), 'test');
  await rejects(call('svc_task_cancel', { taskId: done.id }), 'invalid_transition', done.id, 'done', 'cancelled');
});

const block = suite('tools.svc_task_block');
block.after.each(cleanRoots);

block('blocks a task with its reason', async () => {
  const { call, store } = setup();
  const { task } = await store.create({ title: 'Keys', createdBy: 'test', status: 'ready' });
  const result = await call('svc_task_block', { taskId: task.id, reason: 'waiting for API keys' });
  assert.equal(result, { taskId: task.id, status: 'blocked', transitioned: true, reason: 'waiting for API keys' });
  assert.is((await store.get(task.id)).task.metadata.blockReason, 'waiting for API keys');
});

block('on a leased task, refuses another agent with the call that works, and blocks for its holder', async () => {
  const { call, store, root } = setup();
  const { id, sessionId } = await inProgressTask(store, { agent: 'dev' });
  const before = snapshot(root);
  for (const tool of ['svc_task_block', 'svc_task_update', 'svc_task_complete']) {
    // svc_task_cancel has no lease condition
    const params =
      tool === 'svc_task_update'
        ? { taskId: id, status: 'ready', actor: 'lead' }
        : { taskId: id, reason: 'keys', actor: 'lead' };
    const error = await rejects(
      call(tool, tool === 'svc_task_complete' ? { taskId: id, actor: 'lead' } : params),
      'lease_held',
      'Task has active lease',
      'agent dev',
      sessionId,
    );
    assert.ok(error.hint?.includes(`${tool}({ taskId: "${id}", sessionId: "${sessionId}"`), error.hint);
  }
  assert.equal(snapshot(root), before, 'nothing changed');
  await rejects(
    call('svc_task_block', { taskId: id, reason: 'keys', actor: 'dev', sessionId: 'gone' }),
    'stale_session',
    'gone',
  );
  assert.equal(await call('svc_task_block', { taskId: id, reason: 'keys', actor: 'dev', sessionId }), {
    taskId: id,
    status: 'blocked',
    transitioned: true,
    reason: 'keys',
  });
});

block('requires a reason', async () => {
  const { call, store, root } = setup();
  const { task } = await store.create({ title: 'Keys', createdBy: 'test' });
  const before = snapshot(root);
  await rejects(call('svc_task_block', { taskId: task.id }), 'validation_error', 'reason', 'is required');
  await rejects(
    call('svc_task_block', { taskId: task.id, reason: '   ' }),
    'validation_error',
    'reason',
    'is required',
  );
  assert.equal(snapshot(root), before);
});

const unblock = suite('tools.svc_task_unblock');
unblock.after.each(cleanRoots);

unblock('moves a task blocked from ready back to ready and clears the block reason', async () => {
  const { call, store } = setup();
  const { task } = await store.create({ title: 'Keys', createdBy: 'test', status: 'ready' });
  await call('svc_task_block', { taskId: task.id, reason: 'keys' });
  assert.equal(await call('svc_task_unblock', { taskId: task.id }), {
    taskId: task.id,
    status: 'ready',
    transitioned: true,
  });
  assert.is((await store.get(task.id)).task.metadata.blockReason, undefined);
});

unblock('makes a task blocked from backlog ready, as every unblock does', async () => {
  const { call, store } = setup();
  const { task } = await store.create({ title: 'Not yet planned', createdBy: 'test' });
  await call('svc_task_block', { taskId: task.id, reason: 'keys' });
  assert.is((await store.get(task.id)).task.metadata.blockedFrom, 'backlog');
  assert.equal(await call('svc_task_unblock', { taskId: task.id }), {
    taskId: task.id,
    status: 'ready',
    transitioned: true,
  });
  const after = await store.get(task.id);
  assert.is(after.status, 'ready');
  assert.equal(after.task.metadata, {});
});

unblock('refuses a task that is not blocked', async () => {
  const { call, store } = setup();
  const { task } = await store.create({ title: 'Free', createdBy: 'test' });
  await rejects(call('svc_task_unblock', { taskId: task.id }), 'invalid_transition', task.id, 'not blocked');
});

cancel.run();
block.run();
unblock.run();
