import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanRoots } from '../helpers/root.js';
import { ORG_CHART, rejects, setup, snapshot } from './helpers.js';

const edit = suite('tools.svc_task_edit');
edit.after.each(cleanRoots);

edit('changes title, description, priority and routing and lists the fields it changed', async () => {
  const { call, store, committed, events } = setup();
  const { task } = await store.create({ title: 'Old', body: 'old body', createdBy: 'test', routing: { agent: 'dev' } });
  const result = await call('svc_task_edit', {
    taskId: task.id,
    title: 'New',
    description: 'new body',
    priority: 'critical',
    routing: { role: 'reviewer' },
    actor: 'lead',
  });
  assert.equal(result, {
    taskId: task.id,
    updatedFields: ['title', 'priority', 'routing', 'description'],
    task: { title: 'New', status: 'backlog', priority: 'critical' },
  });
  const stored = await store.get(task.id);
  assert.equal(stored.task.routing, { agent: 'dev', role: 'reviewer' });
  assert.is(stored.body.trim(), 'new body');
  assert.equal(committed, [[task.id]]);
  const updated = (await events()).find((e) => e.type === 'task.updated');
  assert.is(updated!.actor, 'lead');
});

edit('reports no fields when nothing differs', async () => {
  const { call, store } = setup();
  const { task } = await store.create({ title: 'Same', createdBy: 'test' });
  const result = await call('svc_task_edit', { taskId: task.id, title: 'Same', priority: 'normal' });
  assert.equal(result, {
    taskId: task.id,
    updatedFields: [],
    task: { title: 'Same', status: 'backlog', priority: 'normal' },
  });
});

edit('with an org chart, refuses routing to an unknown agent', async () => {
  const { call, store, root } = setup({ org: ORG_CHART });
  const { task } = await store.create({ title: 'Route', createdBy: 'test' });
  const before = snapshot(root);
  await rejects(
    call('svc_task_edit', { taskId: task.id, routing: { agent: 'ghost' } }),
    'validation_error',
    'unknown agent "ghost"',
    'known agents: dev, lead',
  );
  assert.equal(snapshot(root), before);
});

edit('refuses unknown routing keys (workflow is not editable here)', async () => {
  const { call, store } = setup();
  const { task } = await store.create({ title: 'Route', createdBy: 'test' });
  await rejects(
    call('svc_task_edit', { taskId: task.id, routing: { workflow: 'implement-review' } }),
    'validation_error',
    'routing',
    'workflow',
  );
});

edit(
  "refuses a cancelled task's priority, routing and times with a hint, and changes nothing; its title can still be edited",
  async () => {
    const { call, store, root } = setup();
    const { task } = await store.create({ title: 'Dropped', createdBy: 'test', status: 'cancelled' });
    const before = snapshot(root);
    for (const params of [{ priority: 'high' }, { routing: { agent: 'dev' } }, { dueAt: '2027-01-01T00:00:00Z' }]) {
      const error = await rejects(
        call('svc_task_edit', { taskId: task.id, ...params }),
        'invalid_transition',
        `${task.id} is cancelled, which is terminal`,
        'nothing was changed',
      );
      assert.match(error.hint ?? '', /create a new task/);
    }
    assert.equal(snapshot(root), before);
    const renamed = await call('svc_task_edit', { taskId: task.id, title: 'Dropped: duplicate of 002' });
    assert.equal(renamed.updatedFields, ['title']);
  },
);

edit("refuses a done task's priority", async () => {
  const { call, store } = setup();
  const { task } = await store.create({ title: 'Shipped', createdBy: 'test', status: 'done' });
  await rejects(
    call('svc_task_edit', { taskId: task.id, priority: 'critical' }),
    'invalid_transition',
    'is done, which is terminal',
    'its priority',
  );
  assert.is((await store.get(task.id)).task.priority, 'normal');
});

edit.run();
