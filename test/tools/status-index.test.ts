import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS } from '../../lib/tools/index.js';
import { invokeTool, type TaskSummary } from '../../lib/tools/registry.js';
import { summarize, toTaskSummary } from '../../lib/tools/status.js';
import { cleanRoots } from '../helpers/root.js';
import { inProgressTask, setup } from './helpers.js';

type Status = { total: number; byStatus: Record<string, number>; tasks: Array<Record<string, string>> };

// svc_status served from the daemon's index, and the summaries it lists.
const indexed = suite('tools.svc_status with an index');
indexed.after.each(cleanRoots);

indexed('is served from ctx.index when one is given', async () => {
  const { store, ctx } = setup();
  await store.create({ title: 'On disk only', createdBy: 'test' });
  const summaries: TaskSummary[] = [
    { id: 'TASK-X', title: 'Indexed', status: 'ready', priority: 'normal', createdAt: '2026-11-21T00:00:00.000Z' },
  ];
  const result = (await invokeTool(
    TOOLS,
    { tool: 'svc_status', params: {} },
    { ...ctx, index: { summaries: () => summaries } },
  )) as Status;
  assert.equal(result.tasks, [{ id: 'TASK-X', title: 'Indexed', status: 'ready' }]);
});

indexed('refreshes the index before reading it; a tool that changes a task leaves the index alone', async () => {
  const { ctx } = setup();
  const refreshed: string[] = [];
  let fresh = false;
  const summaries: TaskSummary[] = [
    { id: 'TASK-X', title: 'Indexed', status: 'ready', priority: 'normal', createdAt: '2026-11-21T00:00:00.000Z' },
  ];
  const index = {
    summaries: () => (fresh ? summaries : []),
    refresh: async () => {
      refreshed.push('refresh');
      fresh = true;
    },
  };
  const made = (await invokeTool(
    TOOLS,
    { tool: 'svc_dispatch', params: { title: 'Mine', brief: 'Do it' } },
    { ...ctx, index },
  )) as { taskId: string };
  assert.ok(made.taskId);
  assert.equal(refreshed, [], 'svc_dispatch reads the files under the lock, not the index');
  const result = (await invokeTool(TOOLS, { tool: 'svc_status', params: {} }, { ...ctx, index })) as Status;
  assert.equal(refreshed, ['refresh']);
  assert.equal(result.tasks, [{ id: 'TASK-X', title: 'Indexed', status: 'ready' }], 'read after the refresh');
});

const summary = suite('tools.toTaskSummary');
summary.after.each(cleanRoots);

summary('takes the lease agent over routing.agent', async () => {
  const { store } = setup();
  const { id } = await inProgressTask(store, { agent: 'dev' });
  await store.commit(
    id,
    (cur) => ({ task: { ...cur.task, routing: { agent: 'other' } }, body: cur.body, status: cur.status }),
    'test',
  );
  const result = toTaskSummary(await store.get(id));
  assert.equal(result, {
    id,
    title: 'Work',
    status: 'in-progress',
    priority: 'normal',
    createdAt: '2026-11-21T10:00:00.000Z',
    agent: 'dev',
  });
});

const summarizeSuite = suite('tools.summarize');

summarizeSuite('keeps the best `limit` of 10,000 summaries in listing order', () => {
  const many: TaskSummary[] = Array.from({ length: 10_000 }, (_, i) => ({
    id: `T-${String(i).padStart(5, '0')}`,
    title: `t${i}`,
    status: i % 2 ? 'done' : 'ready',
    priority: i === 9998 ? 'critical' : 'normal',
    createdAt: '2026-11-21T00:00:00.000Z',
  }));
  const result = summarize(many, { limit: 3 });
  assert.is(result.total, 10_000);
  assert.equal(
    result.tasks.map((t) => t.id),
    ['T-09998', 'T-00000', 'T-00002'],
  );
});

summarizeSuite(
  'with an index, counts come from its counts and done tasks are not walked (nor awaited) unless asked for',
  async () => {
    const { store } = setup();
    const ready: TaskSummary = {
      id: 'T-1',
      title: 'r',
      status: 'ready',
      priority: 'normal',
      createdAt: '2026-11-21T00:00:00.000Z',
    };
    const done: TaskSummary = {
      id: 'T-2',
      title: 'd',
      status: 'done',
      priority: 'normal',
      createdAt: '2026-11-21T00:00:00.000Z',
    };
    let loadedNow = false;
    const walked: string[] = [];
    const index = {
      summaries(s?: string) {
        walked.push(s ?? 'all');
        return [ready, done].filter((t) => !s || t.status === s);
      },
      counts: () => ({
        backlog: 0,
        ready: 1,
        'in-progress': 0,
        blocked: 0,
        done: 100_000,
        deadletter: 0,
        cancelled: 0,
      }),
      loaded: new Promise<void>((resolve) =>
        setTimeout(() => {
          loadedNow = true;
          resolve();
        }, 50),
      ),
    };
    const call = (params: Record<string, unknown>) =>
      invokeTool(TOOLS, { tool: 'svc_status', params }, { store, index }) as Promise<{
        total: number;
        byStatus: Record<string, number>;
        tasks: { id: string }[];
      }>;
    const overview = await call({});
    assert.equal(
      [overview.total, overview.byStatus.done, overview.tasks.map((t) => t.id)],
      [100_001, 100_000, ['T-1']],
    );
    assert.not.ok(walked.includes('done') || walked.includes('all'), `walked ${walked.join(', ')}`);
    assert.not.ok(loadedNow, 'an overview does not wait for done tasks to be read');
    const doneOnly = await call({ status: 'done' });
    assert.ok(loadedNow, 'listing done tasks waits until they are read');
    assert.equal([doneOnly.total, doneOnly.tasks.map((t) => t.id)], [100_000, ['T-2']]);
    const readyOnly = await call({ status: 'ready' });
    assert.equal(
      readyOnly.byStatus,
      { backlog: 0, ready: 1, 'in-progress': 0, blocked: 0, done: 0, deadletter: 0, cancelled: 0 },
      'byStatus filtered by status, as by agent',
    );
  },
);

indexed.run();
summary.run();
summarizeSuite.run();
