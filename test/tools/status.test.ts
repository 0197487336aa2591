import { writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanRoots } from '../helpers/root.js';
import { inProgressTask, setup } from './helpers.js';

type Status = { total: number; byStatus: Record<string, number>; tasks: Array<Record<string, string>> };

const status = suite('tools.svc_status');
status.after.each(cleanRoots);

async function mixedTree() {
  const env = setup();
  const { store, call } = env;
  await store.create({ title: 'Low backlog', createdBy: 'test', priority: 'low' });
  await store.create({ title: 'Ready for dev', createdBy: 'test', status: 'ready', routing: { agent: 'dev' } });
  const { id: working } = await inProgressTask(store, { agent: 'lead', title: 'Lead works' });
  const { task: urgent } = await store.create({ title: 'Urgent', createdBy: 'test', priority: 'critical' });
  const { task: gone } = await store.create({ title: 'Gone', createdBy: 'test' });
  await call('svc_task_cancel', { taskId: gone.id });
  return { ...env, working, urgent: urgent.id, gone: gone.id };
}

status('counts every task by status and lists active ones first by priority, terminal ones left out', async () => {
  const { call, urgent, working } = await mixedTree();
  const result = await call<Status>('svc_status', {});
  assert.is(result.total, 5);
  assert.equal(result.byStatus, {
    backlog: 2,
    ready: 1,
    'in-progress': 1,
    blocked: 0,
    done: 0,
    deadletter: 0,
    cancelled: 1,
  });
  assert.equal(
    result.tasks.map((t) => t.title),
    ['Urgent', 'Ready for dev', 'Lead works', 'Low backlog'],
  );
  assert.equal(result.tasks[0], { id: urgent, title: 'Urgent', status: 'backlog' });
  assert.equal(result.tasks[2], { id: working, title: 'Lead works', status: 'in-progress', agent: 'lead' });
});

status('filters by status (terminal ones listed when asked for) and by agent', async () => {
  const { call, gone } = await mixedTree();
  const cancelled = await call<Status>('svc_status', { status: 'cancelled' });
  assert.equal([cancelled.total, cancelled.tasks], [1, [{ id: gone, title: 'Gone', status: 'cancelled' }]]);
  const dev = await call<Status>('svc_status', { agent: 'dev' });
  assert.is(dev.total, 1);
  assert.equal(
    dev.tasks.map((t) => t.agent),
    ['dev'],
  );
  assert.is(dev.byStatus.ready, 1);
  assert.equal(dev.byStatus, {
    backlog: 0,
    ready: 1,
    'in-progress': 0,
    blocked: 0,
    done: 0,
    deadletter: 0,
    cancelled: 0,
  });
  const backlog = await call<Status>('svc_status', { status: 'backlog' });
  assert.equal(
    [backlog.total, backlog.byStatus],
    [2, { backlog: 2, ready: 0, 'in-progress': 0, blocked: 0, done: 0, deadletter: 0, cancelled: 0 }],
    'the status filter filters byStatus the same way',
  );
});

status('limit caps the listing but not the counts; compact lists {id, status} only', async () => {
  const { call, urgent } = await mixedTree();
  const result = await call<Status>('svc_status', { limit: 1, compact: true });
  assert.is(result.total, 5);
  assert.equal(result.tasks, [{ id: urgent, status: 'backlog' }]);
  assert.equal((await call<Status>('svc_status', { limit: 0 })).tasks, []);
});

status('lists at most 50 tasks by default', async () => {
  const { call, store } = setup();
  for (let i = 0; i < 55; i++) await store.create({ title: `T${i}`, createdBy: 'test' });
  const result = await call<Status>('svc_status', { actor: 'main' });
  assert.is(result.total, 55);
  assert.is(result.tasks.length, 50);
  assert.is(result.tasks[0]!.title, 'T0');
});

status('without an index, counts done tasks from file names without reading them', async () => {
  const { call, store, root } = setup();
  const { task } = await store.create({ title: 'Finished', createdBy: 'test' });
  await store.commit(task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'done', cause: 'close' }), 'test');
  writeFileSync(`${root}/tasks/done/${task.id}.md`, 'not a task file');
  await store.create({ title: 'Open', createdBy: 'test' });
  const result = await call<Status>('svc_status', {});
  assert.equal([result.total, result.byStatus.done, result.byStatus.backlog], [2, 1, 1]);
  assert.equal(
    result.tasks.map((t) => t.title),
    ['Open'],
  );
});

status('refuses a negative or fractional limit', async () => {
  const { call } = setup();
  for (const limit of [-1, 2.5, '10']) {
    try {
      await call('svc_status', { limit });
      assert.unreachable();
    } catch (err) {
      assert.is((err as { code: string }).code, 'validation_error');
      assert.match((err as Error).message, /limit/);
    }
  }
});

status.run();
