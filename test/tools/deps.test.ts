import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanRoots } from '../helpers/root.js';
import { rejects, setup, snapshot } from './helpers.js';

async function threeTasks() {
  const env = setup();
  const ids: string[] = [];
  for (const title of ['A', 'B', 'C']) ids.push((await env.store.create({ title, createdBy: 'test' })).task.id);
  return { ...env, ids: ids as [string, string, string] };
}

const add = suite('tools.svc_task_dep_add');
add.after.each(cleanRoots);

add('adds a blocker by prefix and returns the full dependsOn', async () => {
  const { call, ids, committed } = await threeTasks();
  assert.equal(await call('svc_task_dep_add', { taskId: ids[0], blockerId: '2026-11-21-002' }), {
    taskId: ids[0],
    blockerId: ids[1],
    dependsOn: [ids[1]],
  });
  assert.equal(await call('svc_task_dep_add', { taskId: ids[0], blockerId: ids[2] }), {
    taskId: ids[0],
    blockerId: ids[2],
    dependsOn: [ids[1], ids[2]],
  });
  assert.equal(await call('svc_task_dep_add', { taskId: ids[0], blockerId: ids[2] }), {
    taskId: ids[0],
    blockerId: ids[2],
    dependsOn: [ids[1], ids[2]],
  });
  assert.equal(committed.length, 3);
});

add('refuses a cycle with dependency_cycle, and a self-dependency', async () => {
  const { call, ids, root } = await threeTasks();
  await call('svc_task_dep_add', { taskId: ids[0], blockerId: ids[1] });
  await call('svc_task_dep_add', { taskId: ids[1], blockerId: ids[2] });
  const before = snapshot(root);
  await rejects(
    call('svc_task_dep_add', { taskId: ids[2], blockerId: ids[0] }),
    'dependency_cycle',
    `${ids[2]} -> ${ids[0]} -> ${ids[1]} -> ${ids[2]}`,
  );
  await rejects(call('svc_task_dep_add', { taskId: ids[0], blockerId: ids[0] }), 'dependency_cycle', ids[0]);
  assert.equal(snapshot(root), before);
});

add('refuses an unknown blocker with not_found', async () => {
  const { call, ids } = await threeTasks();
  await rejects(
    call('svc_task_dep_add', { taskId: ids[0], blockerId: 'TASK-2026-11-21-404' }),
    'not_found',
    'TASK-2026-11-21-404',
  );
});

add('refuses a dependency on a done or cancelled task with a hint, and changes nothing', async () => {
  const { call, store, root } = setup();
  const blocker = await store.create({ title: 'Blocker', createdBy: 'test' });
  for (const status of ['done', 'cancelled'] as const) {
    const { task } = await store.create({ title: `Was ${status}`, createdBy: 'test', status });
    const before = snapshot(root);
    const error = await rejects(
      call('svc_task_dep_add', { taskId: task.id, blockerId: blocker.task.id }),
      'invalid_transition',
      `${task.id} is ${status}, which is terminal`,
      'its dependencies',
    );
    assert.match(error.hint ?? '', /create a new task/);
    assert.equal(snapshot(root), before);
  }
});

const remove = suite('tools.svc_task_dep_remove');
remove.after.each(cleanRoots);

remove('removes a dependency and says whether it was there', async () => {
  const { call, ids } = await threeTasks();
  await call('svc_task_dep_add', { taskId: ids[0], blockerId: ids[1] });
  await call('svc_task_dep_add', { taskId: ids[0], blockerId: ids[2] });
  assert.equal(await call('svc_task_dep_remove', { taskId: ids[0], blockerId: ids[1] }), {
    taskId: ids[0],
    blockerId: ids[1],
    dependsOn: [ids[2]],
    removed: true,
  });
  assert.equal(await call('svc_task_dep_remove', { taskId: ids[0], blockerId: ids[1] }), {
    taskId: ids[0],
    blockerId: ids[1],
    dependsOn: [ids[2]],
    removed: false,
  });
});

remove('removes a dependency on a task that no longer exists, by its full id', async () => {
  const { call, store, ids } = await threeTasks();
  await store.commit(
    ids[0],
    (cur) => ({ task: { ...cur.task, dependsOn: ['TASK-2020-01-01-001'] }, body: cur.body, status: cur.status }),
    'test',
  );
  assert.equal(await call('svc_task_dep_remove', { taskId: ids[0], blockerId: 'TASK-2020-01-01-001' }), {
    taskId: ids[0],
    blockerId: 'TASK-2020-01-01-001',
    dependsOn: [],
    removed: true,
  });
});

add.run();
remove("refuses a change to a done task's dependencies", async () => {
  const { call, store } = setup();
  const blocker = await store.create({ title: 'Blocker', createdBy: 'test' });
  const { task } = await store.create({
    title: 'Shipped',
    createdBy: 'test',
    status: 'done',
    dependsOn: [blocker.task.id],
  });
  await rejects(
    call('svc_task_dep_remove', { taskId: task.id, blockerId: blocker.task.id }),
    'invalid_transition',
    'is done, which is terminal',
  );
  assert.equal((await store.get(task.id)).task.dependsOn, [blocker.task.id]);
});

remove.run();
