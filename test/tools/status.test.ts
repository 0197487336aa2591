import { writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS } from '../../lib/tools/index.js';
import { invokeTool, type TaskSummary } from '../../lib/tools/registry.js';
import { summarize, toTaskSummary } from '../../lib/tools/status.js';
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
  assert.equal(result.byStatus, { backlog: 2, ready: 1, 'in-progress': 1, blocked: 0, done: 0, deadletter: 0, cancelled: 1 });
  assert.equal(result.tasks.map((t) => t.title), ['Urgent', 'Ready for dev', 'Lead works', 'Low backlog']);
  assert.equal(result.tasks[0], { id: urgent, title: 'Urgent', status: 'backlog' });
  assert.equal(result.tasks[2], { id: working, title: 'Lead works', status: 'in-progress', agent: 'lead' });
});

status('filters by status (terminal ones listed when asked for) and by agent', async () => {
  const { call, gone } = await mixedTree();
  const cancelled = await call<Status>('svc_status', { status: 'cancelled' });
  assert.equal([cancelled.total, cancelled.tasks], [1, [{ id: gone, title: 'Gone', status: 'cancelled' }]]);
  const dev = await call<Status>('svc_status', { agent: 'dev' });
  assert.is(dev.total, 1);
  assert.equal(dev.tasks.map((t) => t.agent), ['dev']);
  assert.is(dev.byStatus.ready, 1);
  assert.equal(dev.byStatus, { backlog: 0, ready: 1, 'in-progress': 0, blocked: 0, done: 0, deadletter: 0, cancelled: 0 });
  const backlog = await call<Status>('svc_status', { status: 'backlog' });
  assert.equal([backlog.total, backlog.byStatus], [2, { backlog: 2, ready: 0, 'in-progress': 0, blocked: 0, done: 0, deadletter: 0, cancelled: 0 }], 'the status filter filters byStatus the same way');
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
  assert.equal(result.tasks.map((t) => t.title), ['Open']);
});

status('is served from ctx.index when one is given', async () => {
  const { store, ctx } = setup();
  await store.create({ title: 'On disk only', createdBy: 'test' });
  const summaries: TaskSummary[] = [{ id: 'TASK-X', title: 'Indexed', status: 'ready', priority: 'normal', createdAt: '2026-11-21T00:00:00.000Z' }];
  const result = (await invokeTool(TOOLS, 'svc_status', {}, { ...ctx, index: { summaries: () => summaries } })) as Status;
  assert.equal(result.tasks, [{ id: 'TASK-X', title: 'Indexed', status: 'ready' }]);
});

status('refreshes the index before reading it; a tool that changes a task leaves the index alone', async () => {
  const { ctx } = setup();
  const refreshed: string[] = [];
  let fresh = false;
  const summaries: TaskSummary[] = [{ id: 'TASK-X', title: 'Indexed', status: 'ready', priority: 'normal', createdAt: '2026-11-21T00:00:00.000Z' }];
  const index = {
    summaries: () => (fresh ? summaries : []),
    refresh: async () => void (refreshed.push('refresh'), (fresh = true)),
  };
  const made = (await invokeTool(TOOLS, 'svc_dispatch', { title: 'Mine', brief: 'Do it' }, { ...ctx, index })) as { taskId: string };
  assert.ok(made.taskId);
  assert.equal(refreshed, [], 'svc_dispatch reads the files under the lock, not the index');
  const result = (await invokeTool(TOOLS, 'svc_status', {}, { ...ctx, index })) as Status;
  assert.equal(refreshed, ['refresh']);
  assert.equal(result.tasks, [{ id: 'TASK-X', title: 'Indexed', status: 'ready' }], 'read after the refresh');
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

const summary = suite('tools.toTaskSummary');
summary.after.each(cleanRoots);

summary('takes the lease agent over routing.agent', async () => {
  const { store } = setup();
  const { id } = await inProgressTask(store, { agent: 'dev' });
  await store.commit(id, (cur) => ({ task: { ...cur.task, routing: { agent: 'other' } }, body: cur.body, status: cur.status }), 'test');
  const result = toTaskSummary(await store.get(id));
  assert.equal(result, { id, title: 'Work', status: 'in-progress', priority: 'normal', createdAt: '2026-11-21T10:00:00.000Z', agent: 'dev' });
});

const summarizeSuite = suite('tools.summarize');

summarizeSuite('keeps the best `limit` of 10,000 summaries in listing order', () => {
  const many: TaskSummary[] = Array.from({ length: 10_000 }, (_, i) => ({
    id: `T-${String(i).padStart(5, '0')}`, title: `t${i}`, status: i % 2 ? 'done' : 'ready', priority: i === 9998 ? 'critical' : 'normal', createdAt: '2026-11-21T00:00:00.000Z',
  }));
  const result = summarize(many, { limit: 3 });
  assert.is(result.total, 10_000);
  assert.equal(result.tasks.map((t) => t.id), ['T-09998', 'T-00000', 'T-00002']);
});

summarizeSuite('with an index, counts come from its counts and done tasks are not walked (nor awaited) unless asked for', async () => {
  const { store } = setup();
  const ready: TaskSummary = { id: 'T-1', title: 'r', status: 'ready', priority: 'normal', createdAt: '2026-11-21T00:00:00.000Z' };
  const done: TaskSummary = { id: 'T-2', title: 'd', status: 'done', priority: 'normal', createdAt: '2026-11-21T00:00:00.000Z' };
  let loadedNow = false;
  const walked: string[] = [];
  const index = {
    summaries(s?: string) {
      walked.push(s ?? 'all');
      return [ready, done].filter((t) => !s || t.status === s);
    },
    counts: () => ({ backlog: 0, ready: 1, 'in-progress': 0, blocked: 0, done: 100_000, deadletter: 0, cancelled: 0 }),
    loaded: new Promise<void>((resolve) => setTimeout(() => ((loadedNow = true), resolve()), 50)),
  };
  const call = (params: Record<string, unknown>) => invokeTool(TOOLS, 'svc_status', params, { store, index }) as Promise<{ total: number; byStatus: Record<string, number>; tasks: { id: string }[] }>;
  const overview = await call({});
  assert.equal([overview.total, overview.byStatus.done, overview.tasks.map((t) => t.id)], [100_001, 100_000, ['T-1']]);
  assert.not.ok(walked.includes('done') || walked.includes('all'), `walked ${walked.join(', ')}`);
  assert.not.ok(loadedNow, 'an overview does not wait for done tasks to be read');
  const doneOnly = await call({ status: 'done' });
  assert.ok(loadedNow, 'listing done tasks waits until they are read');
  assert.equal([doneOnly.total, doneOnly.tasks.map((t) => t.id)], [100_000, ['T-2']]);
  const readyOnly = await call({ status: 'ready' });
  assert.equal(readyOnly.byStatus, { backlog: 0, ready: 1, 'in-progress': 0, blocked: 0, done: 0, deadletter: 0, cancelled: 0 }, 'byStatus filtered by status, as by agent');
});

status.run();
summary.run();
summarizeSuite.run();
