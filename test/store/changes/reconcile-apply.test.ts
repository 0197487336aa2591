import { readdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withLock } from '../../../lib/fs/lock/lock.js';
import { readEvents } from '../../../lib/store/events/log.js';
import { applyReconcile } from '../../../lib/store/changes/reconcile-apply.js';
import { planReconcile } from '../../../lib/store/changes/reconcile.js';
import { cleanRoots } from '../../helpers/root.js';
import { listFiles, setup } from './reconcile-fixture.js';

const apply = suite('store.applyReconcile');
apply.after.each(cleanRoots);

apply('heals a hand-moved file through the commit protocol: directory wins, one filesystem event', async () => {
  const { root, store, clock } = await setup();
  const { task, path } = await store.create({ title: 'Hand moved', createdBy: 'test', body: 'Body\n' });
  renameSync(path, join(root, 'tasks/blocked', `${task.id}.md`));
  clock.advance(60_000);
  const planned = await planReconcile(store.paths, clock());
  assert.equal(
    planned.actions.map((action) => action.line),
    [`heal ${task.id}: frontmatter says backlog, directory says blocked (tasks/blocked/${task.id}.md)`],
  );
  const result = await applyReconcile(store.paths, planned, { actor: 'test' });
  assert.is(result.applied.length, 1);
  const healed = await store.get(task.id);
  assert.equal(
    [healed.task.status, healed.task.lastTransitionAt, healed.body],
    ['blocked', '2026-11-21T10:01:00.000Z', 'Body\n'],
  );
  const moves = await readEvents(root, { type: 'task.transitioned' });
  assert.equal(
    moves.map((event) => [event.actor, event.payload]),
    [['filesystem', { from: 'backlog', to: 'blocked', reason: 'moved on disk' }]],
  );
  const again = await applyReconcile(store.paths, planned, { actor: 'test' });
  assert.equal([again.applied.length, again.skipped.length], [0, 1], 'a stale plan applied twice does nothing');
  assert.is((await readEvents(root, { type: 'task.transitioned' })).length, 1);
});

apply('keeps the copy with the later updatedAt and moves the other into data/conflicts/', async () => {
  const { root, store, clock } = await setup();
  const { task, path } = await store.create({ title: 'Twice', createdBy: 'test' });
  const older = readFileSync(path, 'utf8');
  clock.advance(5_000);
  await store.commit(task.id, (cur) => ({ task: cur.task, body: 'newer\n', status: 'ready' }), 'test');
  writeFileSync(path, older); // the old copy comes back, as after a crash between write and unlink
  utimesSync(path, new Date(), new Date(Date.now() + 60_000)); // even with a later mtime, updatedAt decides
  const planned = await planReconcile(store.paths, clock());
  assert.equal(
    planned.actions.map((action) => action.kind),
    ['duplicate'],
  );
  assert.match(
    planned.actions[0]!.line,
    `keep tasks/ready/${task.id}.md (updatedAt 2026-11-21T10:00:05.000Z), move tasks/backlog/${task.id}.md to data/conflicts/`,
  );
  const result = await applyReconcile(store.paths, planned, { actor: 'test' });
  assert.is(result.applied.length, 1);
  assert.equal((await store.get(task.id)).body, 'newer\n');
  const conflicts = readdirSync(join(root, 'data/conflicts'));
  assert.equal(conflicts, [`2026-11-21T10-00-05-000Z.backlog.${task.id}.md`]);
  assert.is(readFileSync(join(root, 'data/conflicts', conflicts[0]!), 'utf8'), older);
  const recovery = await readEvents(root, { type: 'recovery_action' });
  assert.equal(
    recovery.map((event) => event.payload.action),
    ['duplicate_resolved'],
  );
  assert.equal((await planReconcile(store.paths, clock())).actions, []);
});

apply('breaks an updatedAt tie by the later file time', async () => {
  const { root, store } = await setup();
  const { task, path } = await store.create({ title: 'Tie', createdBy: 'test' });
  const copy = join(root, 'tasks/ready', `${task.id}.md`);
  writeFileSync(copy, readFileSync(path, 'utf8').replace('status: backlog', 'status: ready'));
  utimesSync(path, new Date(), new Date(Date.now() + 60_000));
  const planned = await planReconcile(store.paths, new Date());
  assert.equal(
    planned.actions.map((action) => [action.kind, action.path]),
    [['duplicate', path]],
  );
  await applyReconcile(store.paths, planned, { actor: 'test' });
  assert.equal((await store.get(task.id)).path, path);
});

apply('removes a temporary whose lock is free, and leaves one whose writer is alive', async () => {
  const { store } = await setup();
  const a = await store.create({ title: 'Stale temp', createdBy: 'test' });
  const b = await store.create({ title: 'Live temp', createdBy: 'test' });
  writeFileSync(`${a.path}.1f2e3d`, 'partial');
  writeFileSync(`${b.path}.42.abc.new`, 'in flight');
  const result = await withLock(store.paths.lockFile(b.task.id), { what: b.task.id }, async () => {
    const planned = await planReconcile(store.paths, new Date());
    return applyReconcile(store.paths, planned, { actor: 'test', lockWaitMs: 200 });
  });
  assert.equal(
    result.applied.map((action) => action.path),
    [`${a.path}.1f2e3d`],
  );
  assert.equal(
    result.failed.map(({ action, message }) => [action.path, /locked by another writer/.test(message)]),
    [[`${b.path}.42.abc.new`, true]],
  );
  assert.equal(readdirSync(store.paths.statusDir('backlog')).sort(), [
    '.gitkeep',
    `${a.task.id}.md`,
    `${b.task.id}.md`,
    `${b.task.id}.md.42.abc.new`,
  ]);
});

apply('never moves or rewrites an invalid file, even when a valid copy of its id exists', async () => {
  const { root, store } = await setup();
  const { task, path } = await store.create({ title: 'Mid edit', createdBy: 'test' });
  const broken = join(root, 'tasks/ready', `${task.id}.md`);
  writeFileSync(broken, '---\ntitle: [half typed\n---\n');
  const before = listFiles(root);
  const planned = await planReconcile(store.paths, new Date());
  assert.equal(
    planned.actions.map((action) => [action.kind, action.path]),
    [['invalid', broken]],
  );
  const result = await applyReconcile(store.paths, planned, { actor: 'test' });
  assert.equal(result.remaining, planned.actions);
  assert.equal(listFiles(root), before);
  assert.ok(readFileSync(path, 'utf8').includes('status: backlog'));
});

apply.run();
