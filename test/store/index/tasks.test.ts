import { execFileSync } from 'node:child_process';
import { lstatSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATUSES } from '../../../lib/core/status.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { createStore, listTasks } from '../../../lib/store/commit/store.js';
import { createTaskIndex, type IndexChange, type TaskIndex, type TaskIndexOptions } from '../../../lib/store/index/tasks.js';
import { taskText, writeTaskFiles } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

// The index (lib/store/index/tasks.ts) is the daemon's view of tasks/.
const indexes: TaskIndex[] = [];
async function open(root: string, options: TaskIndexOptions = {}): Promise<TaskIndex> {
  const index = await createTaskIndex(toPaths(root), options);
  indexes.push(index);
  await index.loaded;
  return index;
}

function view(index: TaskIndex): string[] {
  return [...index.summaries()].map((s) => `${s.id} ${s.status}`).sort();
}

async function scan(root: string): Promise<string[]> {
  return (await listTasks(toPaths(root), STATUSES)).tasks.map((t) => `${t.task.id} ${t.status}`).sort();
}

const create = suite('store.createTaskIndex');
create.after.each(async () => {
  await Promise.all(indexes.splice(0).map((index) => index.close()));
  cleanRoots();
});

create('scans every status: counts, entries, done tasks loaded in the background, invalid files reported', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 6, (i) => (i <= 2 ? 'ready' : i <= 4 ? 'done' : 'cancelled'));
  const paths = toPaths(root);
  writeFileSync(paths.taskFile('backlog', 'TASK-BROKEN'), '---\ntitle: [unclosed\n---\n');
  writeFileSync(join(paths.statusDir('ready'), '.TASK-9.md'), 'dotfile');
  writeFileSync(join(paths.statusDir('ready'), 'TASK-9.md.1234'), 'temporary');
  const invalid: string[] = [];
  const index = await open(root, { onInvalid: (file) => invalid.push(file.path) });
  assert.equal(index.counts(), { backlog: 0, ready: 2, 'in-progress': 0, blocked: 0, done: 2, deadletter: 0, cancelled: 2 });
  assert.equal(view(index), await scan(root));
  const entry = index.get('TASK-2026-01-01-001')!;
  assert.equal([entry.status, entry.title, entry.priority, entry.agent, entry.path], ['ready', 'Task 1', 'normal', 'dev', paths.taskFile('ready', 'TASK-2026-01-01-001')]);
  assert.equal(entry.routing, { agent: 'dev' });
  assert.equal([...index.summaries('done')].map((e) => e.id), ['TASK-2026-01-01-003', 'TASK-2026-01-01-004']);
  assert.equal(entry.dependsOn, []);
  assert.equal(invalid, [paths.taskFile('backlog', 'TASK-BROKEN')]);
  assert.match(index.invalid()[0]!.message, /malformed YAML/);
});

create('a file written by another process, or moved by hand, reaches the index through the watcher', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const changes: IndexChange[] = [];
  const index = await open(root, { rescanIntervalMs: 60_000, onChange: (change) => changes.push(change) });
  await index.watching;
  const paths = toPaths(root);
  const target = paths.taskFile('ready', 'TASK-2026-01-01-050');
  execFileSync(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(target)}, ${JSON.stringify(taskText('TASK-2026-01-01-050', 'ready', 'From elsewhere'))})`]);
  await within(3000, () => index.get('TASK-2026-01-01-050')?.status === 'ready', 'the new file in the index');
  execFileSync('mv', [paths.taskFile('backlog', 'TASK-2026-01-01-001'), paths.taskFile('blocked', 'TASK-2026-01-01-001')]);
  await within(3000, () => index.get('TASK-2026-01-01-001')?.status === 'blocked', 'the move in the index');
  assert.equal(changes, [{ id: 'TASK-2026-01-01-050', to: 'ready' }, { id: 'TASK-2026-01-01-001', from: 'backlog', to: 'blocked' }]);
});

create('refresh sees another process\'s write at once, without a watcher or a rescan', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 2);
  const index = await open(root, { watch: false, rescanIntervalMs: 60_000 });
  const paths = toPaths(root);
  const other = await createStore({ root }).create({ title: 'Made elsewhere', createdBy: 'cli', status: 'ready' });
  execFileSync('mv', [paths.taskFile('backlog', 'TASK-2026-01-01-001'), paths.taskFile('done', 'TASK-2026-01-01-001')]);
  writeFileSync(paths.taskFile('backlog', 'TASK-2026-01-01-002'), taskText('TASK-2026-01-01-002', 'backlog', 'Renamed in place'));
  await index.refresh();
  assert.is(index.get(other.task.id)?.status, 'ready');
  assert.is(index.get('TASK-2026-01-01-001')?.status, 'done');
  assert.is(index.get('TASK-2026-01-01-002')?.title, 'Renamed in place');
  assert.equal(view(index), await scan(root));
});

create('update re-reads the given ids at once (the daemon\'s own commits)', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const made = await store.create({ title: 'Mine', createdBy: 'test' });
  const index = await open(root, { watch: false, rescanIntervalMs: 60_000 });
  await store.commit(made.task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'test');
  await index.update([made.task.id]);
  assert.is(index.get(made.task.id)?.status, 'ready');
  renameSync(made.path.replace('/backlog/', '/ready/'), join(toPaths(root).data, 'gone.md'));
  await index.update([made.task.id]);
  assert.is(index.get(made.task.id), undefined);
  assert.is(index.counts().ready, 0);
});

create('the periodic rescan is the truth when no event arrives', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 3, () => 'done');
  const index = await open(root, { watch: false, rescanIntervalMs: 50 });
  const paths = toPaths(root);
  writeFileSync(paths.taskFile('done', 'TASK-2026-01-01-002'), taskText('TASK-2026-01-01-002', 'done', 'Edited done task'));
  renameSync(paths.taskFile('done', 'TASK-2026-01-01-003'), paths.taskFile('cancelled', 'TASK-2026-01-01-003'));
  await index.rescan({ full: true });
  assert.is(index.get('TASK-2026-01-01-002')?.title, 'Edited done task');
  assert.is(index.get('TASK-2026-01-01-003')?.status, 'cancelled');
  writeFileSync(paths.taskFile('ready', 'TASK-2026-01-01-004'), taskText('TASK-2026-01-01-004', 'ready', 'Later'));
  await within(3000, () => index.get('TASK-2026-01-01-004'), 'the timer rescan to find the file');
});

create('after a burst of 200 parallel writes the index agrees with a fresh scan', async () => {
  const root = tempRoot();
  const ids = await writeTaskFiles(root, 100);
  const index = await open(root, { rescanIntervalMs: 60_000 });
  await index.watching;
  const store = createStore({ root });
  const moves = ids.map((id, i) => store.commit(id, (cur) => ({ task: cur.task, body: cur.body, status: i % 3 ? 'ready' : 'blocked' }), 'test'));
  const writes = Array.from({ length: 100 }, (_, i) => {
    const id = `TASK-2026-01-01-${200 + i}`;
    return Promise.resolve().then(() => writeFileSync(toPaths(root).taskFile('ready', id), taskText(id, 'ready', `Burst ${i}`)));
  });
  await Promise.all([...moves, ...writes]);
  const truth = await scan(root);
  await within(5000, () => JSON.stringify(view(index)) === JSON.stringify(truth), 'the watcher to catch up');
  await index.refresh();
  assert.equal(view(index), truth);
  assert.equal(index.counts(), { backlog: 0, ready: 166, 'in-progress': 0, blocked: 34, done: 0, deadletter: 0, cancelled: 0 });
});

create('an entry\'s path and file time are the file\'s own (derived, not stored): they follow moves and rewrites, and the newer of two copies wins by its file time', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 3, (i) => (i === 3 ? 'done' : 'backlog'));
  const paths = toPaths(root);
  const index = await open(root, { watch: false, rescanIntervalMs: 60_000 });
  const fileOf = (id: string) => {
    const entry = index.get(id)!;
    return [entry.path, entry.mtimeMs, entry.stamp, Object.keys(entry).includes('path')];
  };
  const expect = (status: 'backlog' | 'blocked' | 'done', id: string) => {
    const s = lstatSync(paths.taskFile(status, id));
    return [paths.taskFile(status, id), s.mtimeMs, `${s.ino}:${s.size}:${s.mtimeMs}`, false];
  };
  assert.equal(fileOf('TASK-2026-01-01-003'), expect('done', 'TASK-2026-01-01-003'), 'a done task read in the background');
  renameSync(paths.taskFile('backlog', 'TASK-2026-01-01-001'), paths.taskFile('blocked', 'TASK-2026-01-01-001'));
  utimesSync(paths.taskFile('blocked', 'TASK-2026-01-01-001'), new Date('2026-02-01T00:00:00.250Z'), new Date('2026-02-01T00:00:00.250Z'));
  await index.update(['TASK-2026-01-01-001']);
  assert.equal(fileOf('TASK-2026-01-01-001'), expect('blocked', 'TASK-2026-01-01-001'), 'moved by hand (the frontmatter still says backlog)');
  assert.is(index.get('TASK-2026-01-01-001')!.moved, true);
  // the same id in two directories, the same updatedAt: the copy with the later file time is kept
  writeFileSync(paths.taskFile('blocked', 'TASK-2026-01-01-002'), taskText('TASK-2026-01-01-002', 'blocked', 'Second copy'));
  utimesSync(paths.taskFile('backlog', 'TASK-2026-01-01-002'), new Date('2026-03-01T00:00:00Z'), new Date('2026-03-01T00:00:00Z'));
  utimesSync(paths.taskFile('blocked', 'TASK-2026-01-01-002'), new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
  await index.update(['TASK-2026-01-01-002']);
  assert.equal([index.get('TASK-2026-01-01-002')!.status, ...fileOf('TASK-2026-01-01-002')], ['backlog', ...expect('backlog', 'TASK-2026-01-01-002')]);
  utimesSync(paths.taskFile('blocked', 'TASK-2026-01-01-002'), new Date('2026-04-01T00:00:00Z'), new Date('2026-04-01T00:00:00Z'));
  await index.update(['TASK-2026-01-01-002']);
  assert.equal([index.get('TASK-2026-01-01-002')!.title, ...fileOf('TASK-2026-01-01-002')], ['Second copy', ...expect('blocked', 'TASK-2026-01-01-002')]);
});

create('the background load of done and cancelled tasks pauses while the daemon is busy and still finishes when it never stops being busy', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 400, (i) => (i % 2 ? 'done' : 'cancelled'));
  let asked = 0;
  const index = await open(root, { watch: false, busy: () => (asked++, true) });
  assert.is(index.counts().done + index.counts().cancelled, 400);
  assert.is([...index.summaries('done')].length + [...index.summaries('cancelled')].length, 400, 'every terminal task read');
  assert.ok(asked > 0, 'the load asked whether the daemon was busy');
});

create.run();
