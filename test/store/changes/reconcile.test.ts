import { mkdirSync, readdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withLock } from '../../../lib/fs/lock/lock.js';
import { readEvents } from '../../../lib/store/events/log.js';
import { applyReconcile } from '../../../lib/store/changes/reconcile-apply.js';
import { planReconcile } from '../../../lib/store/changes/reconcile.js';
import { createStore, type Store } from '../../../lib/store/commit/store.js';
import { svc } from '../../helpers/cli.js';
import { cleanRoots, fixedClock, tempRoot } from '../../helpers/root.js';

const plan = suite('store.planReconcile');
plan.after.each(cleanRoots);

plan('plans nothing for a healthy tree, and creates a missing tree', async () => {
  const { store } = await setup();
  await store.create({ title: 'Fine', createdBy: 'test' });
  assert.equal((await planReconcile(store.paths, new Date())).actions, []);
  const bare = createStore({ root: tempRoot() });
  const fresh = await planReconcile(bare.paths, new Date());
  assert.equal(fresh.actions.map((action) => action.line), [
    'create tasks/backlog/ (missing status directory)', 'create tasks/ready/ (missing status directory)',
    'create tasks/in-progress/ (missing status directory)', 'create tasks/blocked/ (missing status directory)',
    'create tasks/done/ (missing status directory)', 'create tasks/deadletter/ (missing status directory)',
    'create tasks/cancelled/ (missing status directory)',
  ]);
  await applyReconcile(bare.paths, fresh, 'test');
  assert.equal((await planReconcile(bare.paths, new Date())).actions, []);
});

plan('reads only: planning a broken tree changes no file', async () => {
  const { root, store } = await setup();
  const a = await store.create({ title: 'Moved', createdBy: 'test' });
  renameSync(a.path, join(root, 'tasks/done', `${a.task.id}.md`));
  writeFileSync(`${a.path}.123`, 'partial');
  const before = listFiles(root);
  const { actions } = await planReconcile(store.paths, new Date());
  assert.equal(actions.map((action) => action.kind), ['temporary', 'heal']);
  assert.equal(listFiles(root), before);
});

plan('reports stray .md files outside the status directories and badly named ones inside; tasks/archive/ is not looked into', async () => {
  const { root, store } = await setup();
  mkdirSync(join(root, 'tasks/attic/2025'), { recursive: true });
  writeFileSync(join(root, 'tasks/attic/2025/old.md'), '# old\n');
  mkdirSync(join(root, 'tasks/archive/2025-10'), { recursive: true });
  writeFileSync(join(root, 'tasks/archive/2025-10/TASK-2025-10-01-001.md'), '# archived, not read\n');
  writeFileSync(join(root, 'tasks/README.md'), '# readme\n');
  mkdirSync(join(root, 'tasks/ready/sub'));
  writeFileSync(join(root, 'tasks/ready/sub/nested.md'), '# nested\n');
  writeFileSync(join(root, 'tasks/ready/my notes.md'), '# notes\n');
  writeFileSync(join(root, 'tasks/ready/notes.txt'), 'not markdown, not ours\n');
  const { actions } = await planReconcile(store.paths, new Date());
  assert.equal(actions.map((action) => [action.kind, action.line.split(':')[0]]), [
    ['invalid', 'invalid tasks/ready/my notes.md'],
    ['stray', 'stray tasks/README.md'],
    ['stray', 'stray tasks/attic/2025/old.md'],
    ['stray', 'stray tasks/ready/sub/nested.md'],
  ]);
});

const apply = suite('store.applyReconcile');
apply.after.each(cleanRoots);

apply('heals a hand-moved file through the commit protocol: directory wins, one filesystem event', async () => {
  const { root, store, clock } = await setup();
  const { task, path } = await store.create({ title: 'Hand moved', createdBy: 'test', body: 'Body\n' });
  renameSync(path, join(root, 'tasks/blocked', `${task.id}.md`));
  clock.advance(60_000);
  const planned = await planReconcile(store.paths, clock());
  assert.equal(planned.actions.map((action) => action.line), [`heal ${task.id}: frontmatter says backlog, directory says blocked (tasks/blocked/${task.id}.md)`]);
  const result = await applyReconcile(store.paths, planned, 'test');
  assert.is(result.applied.length, 1);
  const healed = await store.get(task.id);
  assert.equal([healed.task.status, healed.task.lastTransitionAt, healed.body], ['blocked', '2026-11-21T10:01:00.000Z', 'Body\n']);
  const moves = await readEvents(root, { type: 'task.transitioned' });
  assert.equal(moves.map((event) => [event.actor, event.payload]), [['filesystem', { from: 'backlog', to: 'blocked', reason: 'moved on disk' }]]);
  const again = await applyReconcile(store.paths, planned, 'test');
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
  assert.equal(planned.actions.map((action) => action.kind), ['duplicate']);
  assert.match(planned.actions[0]!.line, `keep tasks/ready/${task.id}.md (updatedAt 2026-11-21T10:00:05.000Z), move tasks/backlog/${task.id}.md to data/conflicts/`);
  const result = await applyReconcile(store.paths, planned, 'test');
  assert.is(result.applied.length, 1);
  assert.equal((await store.get(task.id)).body, 'newer\n');
  const conflicts = readdirSync(join(root, 'data/conflicts'));
  assert.equal(conflicts, [`2026-11-21T10-00-05-000Z.backlog.${task.id}.md`]);
  assert.is(readFileSync(join(root, 'data/conflicts', conflicts[0]!), 'utf8'), older);
  const recovery = await readEvents(root, { type: 'recovery_action' });
  assert.equal(recovery.map((event) => event.payload.action), ['duplicate_resolved']);
  assert.equal((await planReconcile(store.paths, clock())).actions, []);
});

apply('breaks an updatedAt tie by the later file time', async () => {
  const { root, store } = await setup();
  const { task, path } = await store.create({ title: 'Tie', createdBy: 'test' });
  const copy = join(root, 'tasks/ready', `${task.id}.md`);
  writeFileSync(copy, readFileSync(path, 'utf8').replace('status: backlog', 'status: ready'));
  utimesSync(path, new Date(), new Date(Date.now() + 60_000));
  const planned = await planReconcile(store.paths, new Date());
  assert.equal(planned.actions.map((action) => [action.kind, action.path]), [['duplicate', path]]);
  await applyReconcile(store.paths, planned, 'test');
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
    return applyReconcile(store.paths, planned, 'test', { lockWaitMs: 200 });
  });
  assert.equal(result.applied.map((action) => action.path), [`${a.path}.1f2e3d`]);
  assert.equal(result.failed.map(({ action, message }) => [action.path, /locked by another writer/.test(message)]), [[`${b.path}.42.abc.new`, true]]);
  assert.equal(readdirSync(store.paths.statusDir('backlog')).sort(), ['.gitkeep', `${a.task.id}.md`, `${b.task.id}.md`, `${b.task.id}.md.42.abc.new`]);
});

apply('never moves or rewrites an invalid file, even when a valid copy of its id exists', async () => {
  const { root, store } = await setup();
  const { task, path } = await store.create({ title: 'Mid edit', createdBy: 'test' });
  const broken = join(root, 'tasks/ready', `${task.id}.md`);
  writeFileSync(broken, '---\ntitle: [half typed\n---\n');
  const before = listFiles(root);
  const planned = await planReconcile(store.paths, new Date());
  assert.equal(planned.actions.map((action) => [action.kind, action.path]), [['invalid', broken]]);
  const result = await applyReconcile(store.paths, planned, 'test');
  assert.equal(result.remaining, planned.actions);
  assert.equal(listFiles(root), before);
  assert.ok(readFileSync(path, 'utf8').includes('status: backlog'));
});

const doctor = suite('cli.doctor');
doctor.after.each(cleanRoots);

doctor('prints one line per problem and a summary, exits 1, and 0 once fixed', async () => {
  const { root, store } = await setup();
  const a = await store.create({ title: 'A', createdBy: 'test' });
  renameSync(a.path, join(root, 'tasks/ready', `${a.task.id}.md`));
  writeFileSync(join(root, 'tasks/ready', `${a.task.id}.md.77`), 'x');
  const plan = await svc(root, 'doctor');
  assert.is(plan.code, 1);
  assert.equal(plan.stdout.split('\n').slice(0, 3), [
    `remove temporary file tasks/ready/${a.task.id}.md.77`,
    `heal ${a.task.id}: frontmatter says backlog, directory says ready (tasks/ready/${a.task.id}.md)`,
    '2 problems: 1 temporary file, 1 heal',
  ]);
  const fix = await svc(root, 'doctor', '--fix');
  assert.is(fix.code, 0);
  assert.match(fix.stdout, /fixed 2 problems: 1 temporary file, 1 heal\n$/);
  const after = await svc(root, 'doctor');
  assert.equal([after.code, after.stdout], [0, 'ok: no problems\n']);
});

doctor('--json prints the plan and the result as objects', async () => {
  const { root, store } = await setup();
  const a = await store.create({ title: 'A', createdBy: 'test' });
  renameSync(a.path, join(root, 'tasks/ready', `${a.task.id}.md`));
  writeFileSync(join(root, 'tasks/ready/TASK-bad.md'), 'no frontmatter\n');
  const plan = JSON.parse((await svc(root, 'doctor', '--json')).stdout) as { ok: boolean; problems: number; counts: object; actions: { kind: string }[] };
  assert.equal([plan.ok, plan.problems, plan.counts], [false, 2, { heal: 1, invalid: 1 }]);
  const fixed = await svc(root, 'doctor', '--fix', '--json');
  assert.is(fixed.code, 1, 'an invalid file remains');
  const result = JSON.parse(fixed.stdout) as { ok: boolean; fixed: number; remaining: { kind: string; path: string }[] };
  assert.equal([result.ok, result.fixed, result.remaining.map((action) => action.kind)], [false, 1, ['invalid']]);
});

// --- internal ---

async function setup(): Promise<{ root: string; store: Store; clock: ReturnType<typeof fixedClock> }> {
  const root = tempRoot();
  const clock = fixedClock();
  const store = createStore({ root, clock });
  await store.init();
  return { root, store, clock };
}

function listFiles(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && !path.includes('/.locks/') && !path.includes('/.seq/')) out[path] = readFileSync(path, 'utf8');
  }
  return out;
}

plan.run();
apply.run();
doctor.run();
