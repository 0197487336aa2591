import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanRoots } from '../helpers/root.js';
import { inProgressTask, ORG_CHART, rejects, setup, snapshot, WORKFLOW } from './helpers.js';

const update = suite('tools.svc_task_update');
update.after.each(cleanRoots);

type Updated = { taskId: string; status: string; updatedAt: string; bodyUpdated: boolean; transitioned: boolean };

update('replaces the body and returns the full result shape', async () => {
  const { call, store, clock, committed } = setup();
  const { task } = await store.create({ title: 'Notes', body: 'old', createdBy: 'test' });
  clock.advance(5000);
  const result = await call<Updated>('svc_task_update', { taskId: task.id, body: '# New\n\nbody' });
  assert.equal(result, {
    taskId: task.id,
    status: 'backlog',
    updatedAt: '2026-11-21T10:00:05.000Z',
    bodyUpdated: true,
    transitioned: false,
  });
  assert.is((await store.get(task.id)).body.trim(), '# New\n\nbody');
  assert.equal(committed, [[task.id]]);
});

update('moves along a valid transition and logs the reason with the actor', async () => {
  const { call, store, events } = setup();
  const { task } = await store.create({ title: 'Go', createdBy: 'test' });
  const result = await call<Updated>('svc_task_update', {
    taskId: task.id,
    status: 'ready',
    reason: 'scoped',
    actor: 'lead',
  });
  assert.is(result.status, 'ready');
  assert.ok(result.transitioned);
  assert.not.ok(result.bodyUpdated);
  const moved = (await events()).find((e) => e.type === 'task.transitioned');
  assert.is(moved!.actor, 'lead');
  assert.equal(moved!.payload, { from: 'backlog', to: 'ready', reason: 'scoped' });
});

update('refuses an invalid transition and changes nothing', async () => {
  const { call, store, root } = setup();
  const { task } = await store.create({ title: 'Stay', createdBy: 'test' });
  const before = snapshot(root);
  const error = await rejects(
    call('svc_task_update', { taskId: task.id, status: 'in-progress' }),
    'invalid_transition',
    task.id,
    'backlog',
    'in-progress',
  );
  assert.ok(error.hint?.includes('can move to'));
  assert.equal(snapshot(root), before);
});

update(
  'a heartbeat by the lease holder keeps the lease heartbeatTtlMs (5 minutes) ahead, never shortens it, and keeps updatedAt',
  async () => {
    const { call, store, clock } = setup();
    const { id, sessionId } = await inProgressTask(store);
    const { updatedAt } = (await store.get(id)).task;
    clock.advance(60_000);
    await call<Updated>('svc_task_update', { taskId: id, sessionId });
    assert.is(
      (await store.get(id)).task.lease?.expiresAt,
      '2026-11-21T10:10:00.000Z',
      'the 10-minute claim lease is longer: kept',
    );
    clock.advance(7 * 60_000);
    const result = await call<Updated>('svc_task_update', { taskId: id, sessionId });
    assert.is(result.status, 'in-progress');
    assert.is(result.updatedAt, updatedAt);
    assert.is((await store.get(id)).task.lease?.expiresAt, '2026-11-21T10:13:00.000Z');
  },
);

update('the heartbeat uses aof.daemon.heartbeatTtlMs from the org chart', async () => {
  const { call, store } = setup({ org: `${ORG_CHART}aof:\n  daemon:\n    heartbeatTtlMs: 3600000\n` });
  const { id } = await inProgressTask(store);
  await call('svc_task_update', { taskId: id, actor: 'dev' });
  assert.is((await store.get(id)).task.lease?.expiresAt, '2026-11-21T11:00:00.000Z');
});

update('refuses a stale session', async () => {
  const { call, store, root } = setup();
  const { id } = await inProgressTask(store);
  const before = snapshot(root);
  await rejects(
    call('svc_task_update', { taskId: id, body: 'late', sessionId: 'ended' }),
    'stale_session',
    'ended',
    id,
  );
  assert.equal(snapshot(root), before);
});

update('refuses done on a gated task and points to svc_task_complete', async () => {
  const { call, store } = setup({ org: ORG_CHART, workflows: { 'implement-review': WORKFLOW } });
  const { id } = await inProgressTask(store, { workflow: 'implement-review' });
  const error = await rejects(
    call('svc_task_update', { taskId: id, status: 'done' }),
    'invalid_transition',
    id,
    'implement-review',
  );
  assert.ok(error.hint?.includes('svc_task_complete'));
  assert.is((await store.get(id)).status, 'in-progress');
});

update(
  'refuses done on a task that names checks: only svc_task_complete, through the checks, makes it done',
  async () => {
    const { call, store } = setup();
    const created = await store.create({
      title: 'Checked',
      status: 'ready',
      routing: { agent: 'dev', verify: ['test'] },
      createdBy: 'test',
    });
    const error = await rejects(
      call('svc_task_update', { taskId: created.task.id, status: 'done' }),
      'invalid_transition',
      created.task.id,
      'names checks (test)',
    );
    assert.ok(error.hint?.includes('svc_task_complete'));
    assert.is((await store.get(created.task.id)).status, 'ready');
  },
);

update('refuses a body over 1 MiB', async () => {
  const { call, store } = setup();
  const { task } = await store.create({ title: 'Small', createdBy: 'test' });
  await rejects(call('svc_task_update', { taskId: task.id, body: 'x'.repeat(2 * 1024 * 1024) }), 'too_large', 'limit');
});

update.run();
