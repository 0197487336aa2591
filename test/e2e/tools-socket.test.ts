import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listTasks } from '../../lib/store/commit/store.js';
import { STATUSES } from '../../lib/core/status.js';
import { claimTask } from '../../lib/store/changes/work.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { call, closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

type Reply = {
  status: number;
  body: { ok: boolean; result?: any; error?: { code: string; message: string; hint?: string } };
};

const invoke = async (root: string, tool: string, params: unknown): Promise<Reply> =>
  (await call(root, 'POST', '/v1/tool/invoke', { tool, params })) as Reply;

function snapshot(root: string): string {
  return STATUSES.map((s) =>
    readdirSync(`${root}/tasks/${s}`)
      .sort()
      .map((n) => `${s}/${n}:${n.endsWith('.md') ? readFileSync(`${root}/tasks/${s}/${n}`, 'utf8').length : 0}`)
      .join(','),
  ).join('|');
}

const tools = suite('e2e.tools over the socket');
tools.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

tools("every tool works over the daemon socket, with the specification's return shapes", async () => {
  const root = tempRoot();
  const store = createStore({ root });
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const a = (await invoke(root, 'svc_dispatch', { title: 'A', brief: 'Do A', agent: 'dev', priority: 'high' })).body
    .result;
  assert.equal(Object.keys(a).sort(), ['filePath', 'status', 'taskId']);
  assert.is(a.status, 'ready');
  const b = (await invoke(root, 'svc_dispatch', { title: 'B', brief: 'Do B' })).body.result;
  assert.is(b.status, 'backlog');
  assert.equal((await invoke(root, 'svc_task_dep_add', { taskId: b.taskId, blockerId: a.taskId })).body.result, {
    taskId: b.taskId,
    blockerId: a.taskId,
    dependsOn: [a.taskId],
  });
  assert.is(
    (await invoke(root, 'svc_task_dep_add', { taskId: a.taskId, blockerId: b.taskId })).body.error?.code,
    'dependency_cycle',
  );
  assert.equal(
    (await invoke(root, 'svc_task_dep_remove', { taskId: b.taskId, blockerId: a.taskId })).body.result.dependsOn,
    [],
  );
  const edit = (await invoke(root, 'svc_task_edit', { taskId: b.taskId, title: 'B2', priority: 'low' })).body.result;
  assert.equal(edit, {
    taskId: b.taskId,
    updatedFields: ['title', 'priority'],
    task: { title: 'B2', status: 'backlog', priority: 'low' },
  });
  assert.is((await invoke(root, 'svc_task_block', { taskId: b.taskId, reason: 'keys' })).body.result.status, 'blocked');
  assert.is(
    (await invoke(root, 'svc_task_unblock', { taskId: b.taskId })).body.result.status,
    'ready',
    'blocked from backlog, an unblock makes it ready',
  );
  assert.is(
    (await invoke(root, 'svc_task_cancel', { taskId: b.taskId, reason: 'dup' })).body.result.status,
    'cancelled',
  );
  const { after } = await claimTask(store, a.taskId, { actor: 'test', agent: 'dev' });
  const update = (
    await invoke(root, 'svc_task_update', {
      taskId: a.taskId,
      body: 'Progress',
      sessionId: after.task.lease!.sessionId,
    })
  ).body.result;
  assert.equal(Object.keys(update).sort(), ['bodyUpdated', 'status', 'taskId', 'transitioned', 'updatedAt']);
  assert.equal([update.bodyUpdated, update.transitioned], [true, false]);
  assert.equal(
    (await invoke(root, 'svc_task_complete', { taskId: a.taskId, summary: 'ok', actor: 'dev' })).body.result,
    { taskId: a.taskId, status: 'done' },
  );
  const status = (await invoke(root, 'svc_status', { status: 'done' })).body.result;
  assert.equal([status.total, status.tasks.map((t: { id: string }) => t.id)], [1, [a.taskId]]);
});

tools("the specification's errors come back coded over the socket, and change nothing", async () => {
  const root = tempRoot();
  const store = createStore({ root });
  mkdirSync(`${root}/org/workflows`, { recursive: true });
  writeFileSync(
    `${root}/org/workflows/ship.yaml`,
    'workflow:\n  name: ship\n  rejectionStrategy: origin\n  gates:\n    - id: implement\n      role: implementer\n    - id: review\n      role: reviewer\n  outcomes: { complete: advance, needs_review: reject, blocked: hold }\n',
  );
  const gated = await store.create({
    title: 'Gated',
    status: 'ready',
    routing: { agent: 'dev', workflow: 'ship' },
    gate: { workflow: 'ship', current: 'implement', history: [] },
    createdBy: 'test',
  });
  await claimTask(store, gated.task.id, { actor: 'test', agent: 'dev' });
  const other = await store.create({ title: 'Other', createdBy: 'test' });
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const before = snapshot(root);
  const cases: [string, unknown, number, string, RegExp][] = [
    [
      'svc_task_complete',
      { taskId: gated.task.id },
      422,
      'outcome_required',
      /DAG workflow.*gate `implement`.*outcome.*"complete" \| "needs_review" \| "blocked"/s,
    ],
    ['svc_task_complete', { taskId: gated.task.id, outcome: 'needs_review' }, 422, 'blockers_required', /blockers/],
    ['svc_status', { taskId: 'x' }, 400, 'validation_error', /unknown parameter "taskId"/],
    [
      'svc_task_update',
      { taskId: other.task.id, status: 'in-progress' },
      409,
      'invalid_transition',
      /cannot move from backlog to in-progress/,
    ],
    ['svc_task_cancel', { taskId: other.task.id.slice(0, -1) }, 409, 'ambiguous_id', /matches 2 tasks/],
    ['svc_task_cancel', { taskId: '../../etc/passwd' }, 400, 'validation_error', /Invalid task id|letters, digits/],
    ['svc_dispatch', { title: 42, brief: 'x' }, 400, 'validation_error', /title/],
    ['svc_nope', {}, 404, 'unknown_tool', /Unknown tool "svc_nope"/],
  ];
  for (const [tool, params, status, code, message] of cases) {
    const reply = await invoke(root, tool, params);
    assert.is(reply.status, status, `${tool} ${JSON.stringify(params)}: ${JSON.stringify(reply.body)}`);
    assert.is(reply.body.error?.code, code);
    assert.match(reply.body.error!.message, message);
  }
  const huge = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { title: 'Huge', brief: 'x'.repeat(2 * 1024 * 1024) },
  });
  assert.is(huge.status, 413);
  assert.is(snapshot(root), before, 'nothing changed on disk');
  assert.is((await invoke(root, 'svc_status', {})).status, 200, 'the daemon keeps serving');
});

tools(
  '200 parallel mixed tool calls all succeed or fail clearly, nothing is lost, and the index agrees with a fresh scan',
  async () => {
    const root = tempRoot();
    await startTestDaemon(root, { tools: TOOLS, schedule: false });
    const seed = await Promise.all(
      Array.from({ length: 20 }, (_, i) => invoke(root, 'svc_dispatch', { title: `Seed ${i}`, brief: 'x' })),
    );
    const ids = seed.map((r) => r.body.result.taskId as string);
    const calls = Array.from({ length: 200 }, (_, i) => {
      if (i % 3 === 0) return invoke(root, 'svc_dispatch', { title: `Parallel ${i}`, brief: 'x', agent: 'dev' });
      if (i % 3 === 1) return invoke(root, 'svc_task_update', { taskId: ids[i % ids.length], body: `edit ${i}` });
      return invoke(root, 'svc_status', { limit: 5 });
    });
    const replies = await Promise.all(calls);
    for (const reply of replies) {
      if (reply.status !== 200)
        assert.ok(['locked'].includes(reply.body.error?.code ?? ''), JSON.stringify(reply.body));
    }
    const created = replies.filter((r, i) => i % 3 === 0 && r.status === 200).map((r) => r.body.result.taskId);
    assert.is(created.length, 67, 'every dispatch succeeded');
    const status = (await invoke(root, 'svc_status', { limit: 1000 })).body.result;
    const scan = await listTasks((await import('../../lib/store/disk/paths.js')).toPaths(root), STATUSES);
    assert.is(status.total, scan.tasks.length);
    assert.is(status.total, 87);
    assert.equal(status.tasks.map((t: { id: string }) => t.id).sort(), scan.tasks.map((t) => t.task.id).sort());
  },
);

tools.run();
