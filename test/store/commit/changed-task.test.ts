import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTask, type Task } from '../../../lib/core/task.js';
import { parseChangedTask } from '../../../lib/store/commit/changed-task.js';

const base: Task = parseTask(
  {
    schemaVersion: 1,
    id: 'TASK-2026-11-26-001',
    project: 'default',
    title: 'Base',
    status: 'ready',
    priority: 'normal',
    routing: { agent: 'dev', tags: ['ui'] },
    createdAt: '2026-11-26T10:00:00.000Z',
    updatedAt: '2026-11-26T10:00:00.000Z',
    lastTransitionAt: '2026-11-26T10:00:00.000Z',
    createdBy: 'operator',
    dependsOn: [],
    metadata: { keep: { deep: [1] } },
    lease: { agent: 'dev', expiresAt: '2026-11-26T11:00:00.000Z', sessionId: 's1' },
    extra: 'an unknown field',
  },
  'base',
);

/** Changes a change function may make: valid ones, invalid ones, fields removed, unknown fields, a `__proto__` key. */
const CHANGES: [string, (task: Record<string, unknown>) => void][] = [
  ['nothing', () => undefined],
  ['a new title', (t) => (t.title = 'New')],
  ['an empty title', (t) => (t.title = '')],
  ['a status', (t) => (t.status = 'in-progress')],
  ['an unknown status', (t) => (t.status = 'bogus')],
  ['a renewed lease', (t) => (t.lease = { ...base.lease, expiresAt: '2026-11-26T12:00:00.000Z' })],
  ['a lease with a bad time', (t) => (t.lease = { ...base.lease, expiresAt: 'soon' })],
  ['no lease', (t) => delete t.lease],
  ['no project', (t) => delete t.project],
  ['an undefined title', (t) => (t.title = undefined)],
  ['a time stamp', (t) => (t.updatedAt = '2026-11-26T13:00:00.000Z')],
  ['a bad time stamp', (t) => (t.updatedAt = 'yesterday')],
  ['routing with an empty agent', (t) => (t.routing = { agent: '' })],
  ['a gate without history', (t) => (t.gate = { workflow: 'review', current: 'code' })],
  ['an unsafe dependency', (t) => (t.dependsOn = ['../x'])],
  ['schemaVersion 2', (t) => (t.schemaVersion = 2)],
  ['metadata with __proto__', (t) => (t.metadata = JSON.parse('{"a":{"__proto__":{"x":1}}}'))],
  ['an unknown field with __proto__', (t) => (t.other = JSON.parse('{"__proto__":1}'))],
  ['a field named constructor', (t) => (t.constructor = 'kept')],
  ['a new unknown field', (t) => (t.note = { a: 1 })],
];

/** What `parse` makes of `next`: the task, or the refusal's code, message and hint. */
function outcome(parse: () => Task): unknown {
  try {
    return { task: parse() };
  } catch (err) {
    const { code, message, hint } = err as { code?: string; message: string; hint?: string };
    return { code, message, hint };
  }
}

const changed = suite('store.parseChangedTask');

changed('every change, alone and in pairs, gives what parseTask gives: the same task or the same refusal', () => {
  for (const [first, applyFirst] of CHANGES) {
    for (const [second, applySecond] of CHANGES) {
      const next: Record<string, unknown> = { ...base };
      applyFirst(next);
      applySecond(next);
      const source = 'TASK-2026-11-26-001 (as it would be written)';
      const expected = outcome(() => parseTask(next, source));
      const actual = outcome(() => parseChangedTask(base, next, source));
      assert.equal(actual, expected, `${first} + ${second}`);
    }
  }
});

changed('keeps the fields it did not change as they are, and gives a changed object its parsed copy', () => {
  const gate = { workflow: 'review', current: 'code' };
  const next = parseChangedTask(base, { ...base, gate, title: 'New' }, 'x');
  assert.is(next.metadata, base.metadata);
  assert.is(next.routing, base.routing);
  assert.equal(next.gate, { ...gate, history: [] }, 'the schema default is applied to what changed');
  assert.is.not(next.gate, gate);
});

changed.run();
