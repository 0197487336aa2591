import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanRoots } from '../helpers/root.js';
import { ORG_CHART, rejects, setup, snapshot } from './helpers.js';

const dispatch = suite('tools.svc_dispatch');
dispatch.after.each(cleanRoots);

type Dispatched = { taskId: string; status: string; filePath: string };

dispatch('creates a ready task for a named agent and returns its id, status and absolute file path', async () => {
  const { call, committed, events } = setup();
  const result = await call<Dispatched>('svc_dispatch', { title: 'Write docs', brief: '# Docs\n\nWrite them.', agent: 'dev', actor: 'main' });
  assert.equal(Object.keys(result).sort(), ['filePath', 'status', 'taskId']);
  assert.is(result.taskId, 'TASK-2026-11-21-001');
  assert.is(result.status, 'ready');
  assert.ok(isAbsolute(result.filePath));
  assert.ok(result.filePath.endsWith('/tasks/ready/TASK-2026-11-21-001.md'));
  const text = readFileSync(result.filePath, 'utf8');
  assert.match(text, /priority: normal/);
  assert.match(text, /createdBy: main/);
  assert.match(text, /# Docs\n\nWrite them\./);
  assert.equal(committed, [['TASK-2026-11-21-001']]);
  const [created] = await events();
  assert.is(created!.type, 'task.created');
  assert.is(created!.actor, 'main');
});

dispatch('puts a task without a route in backlog, created by svc_dispatch', async () => {
  const { call, store } = setup();
  const result = await call<Dispatched>('svc_dispatch', { title: 'Someday', brief: 'Later.' });
  assert.is(result.status, 'backlog');
  const { task } = await store.get(result.taskId);
  assert.is(task.createdBy, 'svc_dispatch');
  assert.equal(task.routing, {});
});

dispatch('without an org chart, role, team or tags alone cannot route: backlog', async () => {
  const { call } = setup();
  const result = await call<Dispatched>('svc_dispatch', { title: 'Review', brief: 'x', role: 'reviewer', tags: ['review'] });
  assert.is(result.status, 'backlog');
});

dispatch('with an org chart, a known role, team or tags make the task ready', async () => {
  const { call, store } = setup({ org: ORG_CHART });
  for (const route of [{ role: 'reviewer' }, { team: 'core' }, { tags: ['review'] }]) {
    const result = await call<Dispatched>('svc_dispatch', { title: 'Routed', brief: 'x', ...route });
    assert.is(result.status, 'ready', JSON.stringify(route));
  }
  const { tasks } = await store.list();
  assert.equal(tasks.map((t) => t.task.routing), [{ role: 'reviewer' }, { team: 'core' }, { tags: ['review'] }]);
});

dispatch('with an org chart, refuses an unknown agent, role or team and lists the known ones', async () => {
  const { call, root } = setup({ org: ORG_CHART });
  const before = snapshot(root);
  await rejects(call('svc_dispatch', { title: 'x', brief: 'x', agent: 'ghost' }), 'validation_error', 'unknown agent "ghost"', 'dev, lead');
  await rejects(call('svc_dispatch', { title: 'x', brief: 'x', role: 'tester' }), 'validation_error', 'unknown role "tester"', 'implementer, reviewer');
  await rejects(call('svc_dispatch', { title: 'x', brief: 'x', team: 'ops' }), 'validation_error', 'unknown team "ops"', 'core');
  assert.equal(snapshot(root), before);
});

dispatch('stores dependsOn as full ids from prefixes, with priority, parent, tags and metadata', async () => {
  const { call, store } = setup();
  const first = await call<Dispatched>('svc_dispatch', { title: 'First', brief: 'x' });
  const result = await call<Dispatched>('svc_dispatch', {
    title: 'Second', brief: 'x', agent: 'dev', priority: 'high', dependsOn: ['2026-11-21-001'], parentId: 'TASK-2026-11-21-001',
    tags: ['typescript'], metadata: { ticket: 42 },
  });
  const { task } = await store.get(result.taskId);
  assert.equal(task.dependsOn, [first.taskId]);
  assert.is(task.parentId, first.taskId);
  assert.is(task.priority, 'high');
  assert.equal(task.routing, { agent: 'dev', tags: ['typescript'] });
  assert.equal(task.metadata, { ticket: 42 });
});

dispatch('refuses unknown dependsOn ids and writes nothing', async () => {
  const { call, root } = setup();
  await call('svc_dispatch', { title: 'Exists', brief: 'x' });
  const before = snapshot(root);
  await rejects(call('svc_dispatch', { title: 'x', brief: 'x', dependsOn: ['TASK-2026-11-21-001', 'TASK-2026-11-21-999'] }), 'not_found', 'TASK-2026-11-21-999');
  assert.equal(snapshot(root), before);
});

dispatch('refuses an unknown parentId, naming it', async () => {
  const { call, root } = setup();
  await rejects(call('svc_dispatch', { title: 'Child', brief: 'x', parentId: 'TASK-2026-11-21-777' }), 'not_found', 'parentId', 'TASK-2026-11-21-777');
  assert.equal(Object.keys(snapshot(root)).filter((path) => path.endsWith('.md')), []);
});

dispatch('refuses a 2 MB brief as too_large and a 600-character title, writing nothing', async () => {
  const { call, root } = setup();
  await rejects(call('svc_dispatch', { title: 'Big', brief: 'x'.repeat(2 * 1024 * 1024) }), 'too_large', 'limit');
  await rejects(call('svc_dispatch', { title: 't'.repeat(600), brief: 'x' }), 'too_large', '600 characters');
  await rejects(call('svc_dispatch', { title: 'Meta', brief: 'x', metadata: { blob: 'y'.repeat(40_000) } }), 'too_large', '`metadata`');
  assert.not.ok(existsSync(`${root}/tasks/backlog/TASK-2026-11-21-001.md`));
  assert.equal(Object.keys(snapshot(root)).filter((path) => path.endsWith('.md')), []);
});

dispatch('refuses wrong types and unknown params by name', async () => {
  const { call } = setup();
  await rejects(call('svc_dispatch', { title: 42, brief: 'x' }), 'validation_error', 'title', 'expected string');
  await rejects(call('svc_dispatch', { title: 'x', brief: 'x', prio: 'high' }), 'validation_error', 'unknown parameter "prio"', 'known: title, brief');
  await rejects(call('svc_dispatch', { title: 'x', brief: 'x', priority: 'urgent' }), 'validation_error', 'priority');
  await rejects(call('svc_dispatch', { title: 'x' }), 'validation_error', 'brief');
});

dispatch.run();
