import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEventLog, readEvents } from '../../lib/store/events.js';
import { toPaths } from '../../lib/store/paths.js';
import { createStore } from '../../lib/store/store.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, fixedClock, tempRoot } from '../helpers/root.js';

/** Makes every append to the event log fail (ENOTDIR), as a broken disk or a hand's mistake would. */
function breakEvents(root: string): () => void {
  const { events } = toPaths(root);
  rmSync(events, { recursive: true, force: true });
  mkdirSync(toPaths(root).data, { recursive: true, mode: 0o700 });
  writeFileSync(events, 'not a directory\n');
  return () => {
    rmSync(events);
    mkdirSync(events, { mode: 0o700 });
  };
}

const log = suite('store.createEventLog');
log.after.each(cleanRoots);

log('keeps the lines it could not append, in order, and writes them before the next ones', async () => {
  const root = tempRoot();
  const errors: number[] = [];
  const events = createEventLog(root, { onError: (_err, pending) => void errors.push(pending) });
  const repair = breakEvents(root);
  const now = new Date('2026-11-21T10:00:00.000Z');
  await events.record(now, [{ type: 'a', actor: 't', payload: {} }, { type: 'b', actor: 't', payload: {} }]);
  await events.record(now, [{ type: 'c', actor: 't', payload: {} }]);
  assert.equal(errors, [2, 3]);
  assert.is(events.pending(), 3);
  repair();
  await events.record(new Date('2026-11-22T00:00:01.000Z'), [{ type: 'd', actor: 't', payload: {} }]);
  assert.is(events.pending(), 0);
  assert.equal((await readEvents(root)).map((e) => [e.type, e.timestamp.slice(0, 10)]), [['a', '2026-11-21'], ['b', '2026-11-21'], ['c', '2026-11-21'], ['d', '2026-11-22']]);
  assert.ok(await events.flush(), 'nothing left');
});

log('drops the oldest lines past maxPending and counts them', async () => {
  const root = tempRoot();
  const events = createEventLog(root, { maxPending: 2 });
  const repair = breakEvents(root);
  for (const type of ['a', 'b', 'c']) await events.record(new Date('2026-11-21T10:00:00.000Z'), [{ type, actor: 't', payload: {} }]);
  assert.equal([events.pending(), events.dropped()], [2, 1]);
  repair();
  assert.ok(await events.flush());
  assert.equal((await readEvents(root)).map((e) => e.type), ['b', 'c']);
});

const committed = suite('store: a committed change is a success');
committed.after.each(cleanRoots);

committed('create and commit succeed when the event log cannot be appended; the store reports it and appends later', async () => {
  const root = tempRoot();
  const failures: string[] = [];
  const store = createStore({ root, clock: fixedClock(), onEventError: (err) => void failures.push((err as Error).message) });
  await store.init();
  const repair = breakEvents(root);
  const { task } = await store.create({ title: 'Unlogged', createdBy: 'test' });
  const moved = await store.commit(task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'test');
  assert.is(moved.after.status, 'ready');
  assert.is(failures.length, 2);
  assert.match(failures[0]!, /ENOTDIR/);
  repair();
  assert.ok(await store.events.flush());
  assert.equal((await readEvents(root)).map((e) => e.type), ['task.created', 'task.transitioned']);
});

committed('the command line reports success with a warning when the event could not be appended', async () => {
  const root = tempRoot();
  const created = await svc(root, 'task', 'create', 'Warned');
  const id = created.stdout.split('\n')[0]!;
  breakEvents(root);
  const promoted = await svc(root, 'task', 'promote', id);
  assert.is(promoted.code, 0, promoted.stderr);
  assert.is(promoted.stdout.trim(), `${id} backlog -> ready`);
  assert.match(promoted.stderr, /^warning: the change was made, but its event could not be appended to the event log \(ENOTDIR/m);
  assert.match(promoted.stderr, /hint: check that data\/events\/ is writable/);
});

log.run();
committed.run();
