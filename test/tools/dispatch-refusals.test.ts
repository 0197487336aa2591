import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanRoots } from '../helpers/root.js';
import { ORG_CHART, rejects, setup, snapshot } from './helpers.js';

// What svc_dispatch refuses, and that a refusal writes nothing.
const refusals = suite('tools.svc_dispatch refusals');
refusals.after.each(cleanRoots);

type Dispatched = { taskId: string; status: string; filePath: string };

refusals('with an org chart, refuses an unknown agent, role or team and lists the known ones', async () => {
  const { call, root } = setup({ org: ORG_CHART });
  const before = snapshot(root);
  await rejects(
    call('svc_dispatch', { title: 'x', brief: 'x', agent: 'ghost' }),
    'validation_error',
    'unknown agent "ghost"',
    'dev, lead',
  );
  await rejects(
    call('svc_dispatch', { title: 'x', brief: 'x', role: 'tester' }),
    'validation_error',
    'unknown role "tester"',
    'implementer, reviewer',
  );
  await rejects(
    call('svc_dispatch', { title: 'x', brief: 'x', team: 'ops' }),
    'validation_error',
    'unknown team "ops"',
    'core',
  );
  assert.equal(snapshot(root), before);
});

refusals('refuses unknown dependsOn ids and writes nothing', async () => {
  const { call, root } = setup();
  await call('svc_dispatch', { title: 'Exists', brief: 'x' });
  const before = snapshot(root);
  await rejects(
    call('svc_dispatch', { title: 'x', brief: 'x', dependsOn: ['TASK-2026-11-21-001', 'TASK-2026-11-21-999'] }),
    'not_found',
    'TASK-2026-11-21-999',
  );
  assert.equal(snapshot(root), before);
});

refusals('refuses an unknown parentId, naming it', async () => {
  const { call, root } = setup();
  await rejects(
    call('svc_dispatch', { title: 'Child', brief: 'x', parentId: 'TASK-2026-11-21-777' }),
    'not_found',
    'parentId',
    'TASK-2026-11-21-777',
  );
  assert.equal(
    Object.keys(snapshot(root)).filter((path) => path.endsWith('.md')),
    [],
  );
});

refusals('refuses a 2 MB brief as too_large and a 600-character title, writing nothing', async () => {
  const { call, root } = setup();
  await rejects(call('svc_dispatch', { title: 'Big', brief: 'x'.repeat(2 * 1024 * 1024) }), 'too_large', 'limit');
  await rejects(call('svc_dispatch', { title: 't'.repeat(600), brief: 'x' }), 'too_large', '600 characters');
  await rejects(
    call('svc_dispatch', { title: 'Meta', brief: 'x', metadata: { blob: 'y'.repeat(40_000) } }),
    'too_large',
    '`metadata`',
  );
  assert.not.ok(existsSync(`${root}/tasks/backlog/TASK-2026-11-21-001.md`));
  assert.equal(
    Object.keys(snapshot(root)).filter((path) => path.endsWith('.md')),
    [],
  );
});

refusals('refuses wrong types and unknown params by name', async () => {
  const { call } = setup();
  await rejects(call('svc_dispatch', { title: 42, brief: 'x' }), 'validation_error', 'title', 'expected string');
  await rejects(
    call('svc_dispatch', { title: 'x', brief: 'x', prio: 'high' }),
    'validation_error',
    'unknown parameter "prio"',
    'known: title, brief',
  );
  await rejects(call('svc_dispatch', { title: 'x', brief: 'x', priority: 'urgent' }), 'validation_error', 'priority');
  await rejects(call('svc_dispatch', { title: 'x' }), 'validation_error', 'brief');
});

refusals(
  'refuses metadata nested deeper than the reader allows with validation_error, writing nothing and reserving no id',
  async () => {
    const { call, root } = setup();
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 40; i++) deep = { inner: deep };
    const error = await rejects(
      call('svc_dispatch', { title: 'Deep', brief: 'x', metadata: deep }),
      'validation_error',
      'would not read back',
      'nesting',
    );
    assert.match(error.hint ?? '', /nothing was written/);
    assert.equal(
      Object.keys(snapshot(root)).filter((path) => path.endsWith('.md')),
      [],
    );
    assert.equal(existsSync(`${root}/tasks/.seq`) ? readdirSync(`${root}/tasks/.seq`) : [], [], 'no id was reserved');
    const next = await call<Dispatched>('svc_dispatch', {
      title: 'Shallow',
      brief: 'x',
      metadata: { a: { b: { c: 1 } } },
    });
    assert.is(next.taskId, 'TASK-2026-11-21-001');
  },
);

refusals('refuses a __proto__ key in metadata by name, and keeps a constructor key', async () => {
  const { call, root, store } = setup();
  const params = JSON.parse(
    '{"title":"Proto","brief":"x","metadata":{"ok":1,"nested":{"__proto__":{"polluted":true}}}}',
  );
  await rejects(call('svc_dispatch', params), 'validation_error', 'metadata.nested.__proto__', 'silently dropped');
  assert.equal(
    Object.keys(snapshot(root)).filter((path) => path.endsWith('.md')),
    [],
  );
  const kept = await call<Dispatched>(
    'svc_dispatch',
    JSON.parse('{"title":"Ctor","brief":"x","metadata":{"constructor":"kept","toString":"too"}}'),
  );
  assert.equal((await store.get(kept.taskId)).task.metadata, { constructor: 'kept', toString: 'too' });
  assert.match(readFileSync(kept.filePath, 'utf8'), /metadata:\n {2}constructor: kept\n {2}toString: too\n/);
});
refusals.run();
