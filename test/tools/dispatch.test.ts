import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { leaseTask } from '../../lib/store/changes/dispatch.js';
import { createStore } from '../../lib/store/commit/store.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanRoots, fixedClock, within } from '../helpers/root.js';
import { ORG_CHART, rejects, setup } from './helpers.js';

const dispatch = suite('tools.svc_dispatch');
dispatch.after.each(cleanRoots);

type Dispatched = { taskId: string; status: string; filePath: string };

dispatch('creates a ready task for a named agent and returns its id, status and absolute file path', async () => {
  const { call, committed, events } = setup();
  const result = await call<Dispatched>('svc_dispatch', {
    title: 'Write docs',
    brief: '# Docs\n\nWrite them.',
    agent: 'dev',
    actor: 'main',
  });
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
  const result = await call<Dispatched>('svc_dispatch', {
    title: 'Review',
    brief: 'x',
    role: 'reviewer',
    tags: ['review'],
  });
  assert.is(result.status, 'backlog');
});

dispatch('with an org chart, a known role, team or tags make the task ready', async () => {
  const { call, store } = setup({ org: ORG_CHART });
  for (const route of [{ role: 'reviewer' }, { team: 'core' }, { tags: ['review'] }]) {
    const result = await call<Dispatched>('svc_dispatch', { title: 'Routed', brief: 'x', ...route });
    assert.is(result.status, 'ready', JSON.stringify(route));
  }
  const { tasks } = await store.list();
  assert.equal(
    tasks.map((t) => t.task.routing),
    [{ role: 'reviewer' }, { team: 'core' }, { tags: ['review'] }],
  );
});

dispatch('stores dependsOn as full ids from prefixes, with priority, parent, tags and metadata', async () => {
  const { call, store } = setup();
  const first = await call<Dispatched>('svc_dispatch', { title: 'First', brief: 'x' });
  const result = await call<Dispatched>('svc_dispatch', {
    title: 'Second',
    brief: 'x',
    agent: 'dev',
    priority: 'high',
    dependsOn: ['2026-11-21-001'],
    parentId: 'TASK-2026-11-21-001',
    tags: ['typescript'],
    metadata: { ticket: 42 },
  });
  const { task } = await store.get(result.taskId);
  assert.equal(task.dependsOn, [first.taskId]);
  assert.is(task.parentId, first.taskId);
  assert.is(task.priority, 'high');
  assert.equal(task.routing, { agent: 'dev', tags: ['typescript'] });
  assert.equal(task.metadata, { ticket: 42 });
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
  await within(
    5000,
    () => existsSync(`${root}/tasks/in-progress/TASK-2026-11-21-001.md`) && !existsSync(file),
    'the lease',
  );
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

dispatch('keeps a budget in metadata.budget, beside the metadata given; a budget not positive is refused', async () => {
  const { call, store } = setup();
  const params = { title: 'Costly', brief: 'x', metadata: { ticket: 'X-1' }, budget: { usd: 2, tokens: 500000 } };
  const result = await call<Dispatched>('svc_dispatch', params);
  assert.equal((await store.get(result.taskId)).task.metadata, { ticket: 'X-1', budget: { usd: 2, tokens: 500000 } });
  for (const [budget, says] of [
    [{ usd: 0 }, 'budget.usd: must be a number of dollars greater than 0'],
    [{ tokens: 2.5 }, 'budget.tokens: must be a whole number of tokens'],
    [{}, 'budget: must name usd or tokens'],
    [{ dollars: 2 }, 'unknown budget (known: usd, tokens)'],
  ] as const)
    await rejects(call('svc_dispatch', { title: 'Bad', brief: 'x', budget }), 'validation_error', says);
  assert.is((await store.list()).tasks.length, 1);
});

dispatch.run();

/** Reads a FIFO until every writer is done. */
function drain(fifo: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    createReadStream(fifo, 'utf8')
      .on('data', (chunk) => void (text += chunk))
      .on('end', () => resolve(text))
      .on('error', reject);
  });
}
