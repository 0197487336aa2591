import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startDaemon } from '../../lib/daemon/daemon.js';
import { STATUSES } from '../../lib/core/status.js';
import { createStore, listTasks } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { call, closeDaemons, startTestDaemon, TEST_TOOLS, writeTaskFiles } from '../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

type Ok<T> = { ok: true; result: T };
type Err = { ok: false; error: { code: string; message: string; hint?: string } };
type StatusResult = { total: number; byStatus: Record<string, number>; tasks: { id: string; status: string }[] };

const start = suite('daemon.startDaemon');
start.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

start('a second daemon on the same home fails clearly, naming the pid of the first', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  try {
    await startDaemon({ root, tools: TEST_TOOLS });
    assert.unreachable('the second start should fail');
  } catch (err) {
    assert.is((err as { code: string }).code, 'locked');
    assert.match((err as Error).message, `already running for ${root} (pid ${process.pid})`);
    assert.match((err as { hint: string }).hint, /svc daemon stop/);
  }
  assert.is((await call(root, 'GET', '/healthz')).status, 200);
});

start('a socket path past the OS limit fails before anything starts, suggesting a shorter SVC_HOME', async () => {
  const root = join(tempRoot(), 'x'.repeat(100));
  try {
    await startDaemon({ root, tools: TEST_TOOLS });
    assert.unreachable('should refuse');
  } catch (err) {
    assert.is((err as { code: string }).code, 'validation_error');
    assert.match((err as Error).message, /Unix sockets allow at most 10[37]/);
    assert.match((err as { hint: string }).hint, /shorter directory/);
  }
});

start(
  'read-your-writes: svc_status right after svc_dispatch, and after another process writes, sees the task',
  async () => {
    const root = tempRoot();
    await startTestDaemon(root, { tools: TOOLS, watch: false, rescanIntervalMs: 60_000 });
    const invoke = async <T>(tool: string, params: object) =>
      ((await call(root, 'POST', '/v1/tool/invoke', { tool, params })).body as Ok<T>).result;
    const made = await invoke<{ taskId: string }>('svc_dispatch', { title: 'Mine', brief: 'Do it', agent: 'dev' });
    const first = await invoke<StatusResult>('svc_status', {});
    assert.equal(
      first.tasks.map((t) => t.id),
      [made.taskId],
    );
    const other = await createStore({ root }).create({ title: 'Theirs', createdBy: 'cli' });
    const second = await invoke<StatusResult>('svc_status', {});
    assert.equal(second.byStatus.backlog, 1);
    renameSync(other.path, other.path.replace('/backlog/', '/blocked/'));
    const third = await invoke<StatusResult>('svc_status', {});
    assert.equal(third.tasks.find((t) => t.id === other.task.id)?.status, 'blocked');
  },
);

start(
  '200 parallel tool calls (creates, moves, listings) all succeed and the index agrees with a fresh scan',
  async () => {
    const root = tempRoot();
    const existing = await writeTaskFiles(root, 100);
    const daemon = await startTestDaemon(root);
    const invoke = (tool: string, params: object) => call(root, 'POST', '/v1/tool/invoke', { tool, params });
    const calls = Array.from({ length: 200 }, (_, i) =>
      i < 100
        ? invoke('test_move', { taskId: existing[i], status: i % 2 ? 'ready' : 'blocked' })
        : i < 150
          ? invoke('test_create', { title: `New ${i}`, status: 'ready' })
          : invoke('test_list', {}),
    );
    const answers = await Promise.all(calls);
    assert.equal(
      answers.filter((a) => a.status !== 200).map((a) => a.body),
      [],
    );
    const listed = ((await invoke('test_list', {})).body as Ok<string[]>).result;
    const scan = await listTasks(daemon.paths, STATUSES);
    assert.is(listed.length, 150);
    assert.equal(listed, scan.tasks.map((t) => `${t.task.id} ${t.status}`).sort());
    assert.equal(daemon.index.counts(), {
      backlog: 0,
      ready: 100,
      'in-progress': 0,
      blocked: 50,
      done: 0,
      deadletter: 0,
      cancelled: 0,
    });
  },
);

start('bad input changes nothing: a path-like id is refused and the tree stays as it was', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { tools: TOOLS });
  const res = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_task_cancel',
    params: { taskId: '../../etc/passwd' },
  });
  assert.is(res.status, 400);
  assert.is((res.body as Err).error.code, 'validation_error');
  const status = await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_status', params: {} });
  assert.is((status.body as Ok<StatusResult>).result.total, 0);
});

start.run();
