import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendCount } from '../../../lib/fs/append.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { createEventLog, readEvents } from '../../../lib/store/events/log.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';
import { breakEvents } from './break-events.js';

// A committed change when the log cannot be appended: unwritable-log.test.ts; the spool's merge: spool.test.ts.
const log = suite('store.createEventLog');
log.after.each(cleanRoots);

log('keeps the lines it could not append, in order, and writes them before the next ones', async () => {
  const root = tempRoot();
  const errors: number[] = [];
  const events = createEventLog(root, { onError: (_err, pending) => void errors.push(pending) });
  const repair = breakEvents(root);
  const now = new Date('2026-11-21T10:00:00.000Z');
  await events.record(now, [
    { type: 'a', actor: 't', payload: {} },
    { type: 'b', actor: 't', payload: {} },
  ]);
  await events.record(now, [{ type: 'c', actor: 't', payload: {} }]);
  assert.equal(errors, [2, 3]);
  assert.is(events.pending(), 3);
  repair();
  await events.record(new Date('2026-11-22T00:00:01.000Z'), [{ type: 'd', actor: 't', payload: {} }]);
  assert.is(events.pending(), 0);
  assert.equal(
    (await readEvents(root)).map((e) => [e.type, e.timestamp.slice(0, 10)]),
    [
      ['a', '2026-11-21'],
      ['b', '2026-11-21'],
      ['c', '2026-11-21'],
      ['d', '2026-11-22'],
    ],
  );
  assert.ok(await events.flush(), 'nothing left');
});

log('drops the oldest lines past maxPending and counts them', async () => {
  const root = tempRoot();
  const events = createEventLog(root, { maxPending: 2 });
  const repair = breakEvents(root);
  for (const type of ['a', 'b', 'c'])
    await events.record(new Date('2026-11-21T10:00:00.000Z'), [{ type, actor: 't', payload: {} }]);
  assert.equal([events.pending(), events.dropped()], [2, 1]);
  repair();
  assert.ok(await events.flush());
  assert.equal(
    (await readEvents(root)).map((e) => e.type),
    ['b', 'c'],
  );
});

log('the lines recorded in one event-loop turn go in one append, in the order recorded', async () => {
  const root = tempRoot();
  const events = createEventLog(root);
  const now = new Date('2026-11-21T10:00:00.000Z');
  await events.record(now, [{ type: 'first', actor: 't', payload: {} }]); // creates the directory
  const before = appendCount();
  await Promise.all(
    Array.from({ length: 16 }, (_, i) =>
      events.record(now, [
        { type: `change-${i}`, actor: 't', payload: { part: 1 } },
        { type: `change-${i}`, actor: 't', payload: { part: 2 } },
      ]),
    ),
  );
  assert.is(appendCount() - before, 1);
  const lines = (await readEvents(root)).slice(1).map((e) => `${e.type}/${String(e.payload.part)}`);
  assert.equal(lines, Array.from({ length: 16 }, (_, i) => [`change-${i}/1`, `change-${i}/2`]).flat());
});

log('16 changes committed at once append their events in one or two writes, each change once', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const ids: string[] = [];
  for (let i = 0; i < 16; i++) ids.push((await store.create({ title: `Moved ${i}`, createdBy: 'test' })).task.id);
  const before = appendCount();
  await Promise.all(
    ids.map((id) => store.commit(id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'test')),
  );
  const appends = appendCount() - before;
  assert.ok(appends >= 1 && appends <= 2, `${appends} appends`);
  const moved = (await readEvents(root, { type: 'task.transitioned' })).map((e) => e.taskId);
  assert.equal([...moved].sort(), [...ids].sort());
});

const read = suite('store.readEvents');
read.after.each(cleanRoots);

read(
  'reads back lines of types the event map does not declare (a log of an older svc, or written by hand)',
  async () => {
    const root = tempRoot();
    const { events } = toPaths(root);
    mkdirSync(events, { recursive: true });
    const lines = [
      {
        timestamp: '2026-11-21T10:00:00.000Z',
        type: 'task.renamed',
        taskId: 'TASK-2026-11-21-001',
        actor: 'svc-0.1',
        payload: { was: 'x' },
      },
      { timestamp: '2026-11-21T10:00:01.000Z', type: 'plugin.session-start', actor: 'plugin', payload: {} },
    ];
    writeFileSync(join(events, '2026-11-21.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    assert.equal(await readEvents(root), lines);
    assert.equal(await readEvents(root, { type: 'task.renamed' }), [lines[0]]);
  },
);

log.run();
read.run();
