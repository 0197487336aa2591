import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { leaseTask } from '../../lib/store/changes/dispatch.js';
import { createStore } from '../../lib/store/commit/store.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanRoots, fixedClock, within } from '../helpers/root.js';
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

dispatch('refuses metadata nested deeper than the reader allows with validation_error, writing nothing and reserving no id', async () => {
  const { call, root } = setup();
  let deep: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < 40; i++) deep = { inner: deep };
  const error = await rejects(call('svc_dispatch', { title: 'Deep', brief: 'x', metadata: deep }), 'validation_error', 'would not read back', 'nesting');
  assert.match(error.hint ?? '', /nothing was written/);
  assert.equal(Object.keys(snapshot(root)).filter((path) => path.endsWith('.md')), []);
  assert.equal(existsSync(`${root}/tasks/.seq`) ? readdirSync(`${root}/tasks/.seq`) : [], [], 'no id was reserved');
  const next = await call<Dispatched>('svc_dispatch', { title: 'Shallow', brief: 'x', metadata: { a: { b: { c: 1 } } } });
  assert.is(next.taskId, 'TASK-2026-11-21-001');
});

dispatch('refuses a __proto__ key in metadata by name, and keeps a constructor key', async () => {
  const { call, root, store } = setup();
  const params = JSON.parse('{"title":"Proto","brief":"x","metadata":{"ok":1,"nested":{"__proto__":{"polluted":true}}}}');
  await rejects(call('svc_dispatch', params), 'validation_error', 'metadata.nested.__proto__', 'silently dropped');
  assert.equal(Object.keys(snapshot(root)).filter((path) => path.endsWith('.md')), []);
  const kept = await call<Dispatched>('svc_dispatch', JSON.parse('{"title":"Ctor","brief":"x","metadata":{"constructor":"kept","toString":"too"}}'));
  assert.equal((await store.get(kept.taskId)).task.metadata, { constructor: 'kept', toString: 'too' });
  assert.match(readFileSync(kept.filePath, 'utf8'), /metadata:\n {2}constructor: kept\n {2}toString: too\n/);
});

dispatch('answers with its task even when the scheduler leases it before the call returns', async () => {
  const { call, root } = setup();
  // The event log is a FIFO: the call's event append waits for a reader, and the test moves the new
  // task meanwhile, as a scheduler in another process would, the moment it lands in ready/.
  mkdirSync(`${root}/data/events`, { recursive: true, mode: 0o700 });
  const fifo = `${root}/data/events/2026-11-21.jsonl`;
  execFileSync('mkfifo', [fifo]);
  const answer = call<Dispatched>('svc_dispatch', { title: 'Raced', brief: 'x', agent: 'dev' });
  const file = `${root}/tasks/ready/TASK-2026-11-21-001.md`;
  await within(5000, () => existsSync(file), 'the new task in ready/');
  const scheduler = createStore({ root, clock: fixedClock() });
  const leased = leaseTask(scheduler, 'TASK-2026-11-21-001', { agent: 'dev', adapter: 'command', ttlMs: 60_000 });
  await within(5000, () => existsSync(`${root}/tasks/in-progress/TASK-2026-11-21-001.md`) && !existsSync(file), 'the lease');
  const lines = drain(fifo);
  const result = await answer;
  assert.equal([result.taskId, result.status], ['TASK-2026-11-21-001', 'ready']);
  assert.ok(await leased);
  assert.match(await lines, /"type":"task.created"/);
});

dispatch('succeeds when the index cannot be told of the new task: the file is the truth', async () => {
  const { call, ctx, store } = setup();
  ctx.onCommitted = () => {
    throw new Error('index unavailable');
  };
  const result = await call<Dispatched>('svc_dispatch', { title: 'Unindexed', brief: 'x' });
  assert.is((await store.get(result.taskId)).task.title, 'Unindexed');
});

dispatch.run();

/** Reads a FIFO until every writer is done. */
function drain(fifo: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    createReadStream(fifo, 'utf8').on('data', (chunk) => void (text += chunk)).on('end', () => resolve(text)).on('error', reject);
  });
}
