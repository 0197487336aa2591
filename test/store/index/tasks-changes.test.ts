import { execFileSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { createStore } from '../../../lib/store/commit/store.js';
import type { IndexChange } from '../../../lib/store/index/tasks.js';
import { taskText, writeTaskFiles } from '../../helpers/daemon.js';
import { tempRoot, within } from '../../helpers/root.js';
import { closeIndexes, open, scan, view } from './tasks-fixture.js';

// How changes reach the index: the watcher, refresh, update, the periodic rescan, a burst of writes.
const changes = suite('store.createTaskIndex changes');
changes.after.each(closeIndexes);

changes('a file written by another process, or moved by hand, reaches the index through the watcher', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const changes: IndexChange[] = [];
  const index = await open(root, { rescanIntervalMs: 60_000, onChange: (change) => changes.push(change) });
  await index.watching;
  const paths = toPaths(root);
  const target = paths.taskFile('ready', 'TASK-2026-01-01-050');
  execFileSync(process.execPath, [
    '-e',
    `require('fs').writeFileSync(${JSON.stringify(target)}, ${JSON.stringify(taskText('TASK-2026-01-01-050', 'ready', 'From elsewhere'))})`,
  ]);
  await within(3000, () => index.get('TASK-2026-01-01-050')?.status === 'ready', 'the new file in the index');
  execFileSync('mv', [
    paths.taskFile('backlog', 'TASK-2026-01-01-001'),
    paths.taskFile('blocked', 'TASK-2026-01-01-001'),
  ]);
  await within(3000, () => index.get('TASK-2026-01-01-001')?.status === 'blocked', 'the move in the index');
  assert.equal(changes, [
    { id: 'TASK-2026-01-01-050', to: 'ready' },
    { id: 'TASK-2026-01-01-001', from: 'backlog', to: 'blocked' },
  ]);
});

changes("refresh sees another process's write at once, without a watcher or a rescan", async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 2);
  const index = await open(root, { watch: false, rescanIntervalMs: 60_000 });
  const paths = toPaths(root);
  const other = await createStore({ root }).create({ title: 'Made elsewhere', createdBy: 'cli', status: 'ready' });
  execFileSync('mv', [paths.taskFile('backlog', 'TASK-2026-01-01-001'), paths.taskFile('done', 'TASK-2026-01-01-001')]);
  writeFileSync(
    paths.taskFile('backlog', 'TASK-2026-01-01-002'),
    taskText('TASK-2026-01-01-002', 'backlog', 'Renamed in place'),
  );
  await index.refresh();
  assert.is(index.get(other.task.id)?.status, 'ready');
  assert.is(index.get('TASK-2026-01-01-001')?.status, 'done');
  assert.is(index.get('TASK-2026-01-01-002')?.title, 'Renamed in place');
  assert.equal(view(index), await scan(root));
});

changes("update re-reads the given ids at once (the daemon's own commits)", async () => {
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

changes('the periodic rescan is the truth when no event arrives', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 3, () => 'done');
  const index = await open(root, { watch: false, rescanIntervalMs: 50 });
  const paths = toPaths(root);
  writeFileSync(
    paths.taskFile('done', 'TASK-2026-01-01-002'),
    taskText('TASK-2026-01-01-002', 'done', 'Edited done task'),
  );
  renameSync(paths.taskFile('done', 'TASK-2026-01-01-003'), paths.taskFile('cancelled', 'TASK-2026-01-01-003'));
  await index.rescan({ full: true });
  assert.is(index.get('TASK-2026-01-01-002')?.title, 'Edited done task');
  assert.is(index.get('TASK-2026-01-01-003')?.status, 'cancelled');
  writeFileSync(paths.taskFile('ready', 'TASK-2026-01-01-004'), taskText('TASK-2026-01-01-004', 'ready', 'Later'));
  await within(3000, () => index.get('TASK-2026-01-01-004'), 'the timer rescan to find the file');
});

changes('after a burst of 200 parallel writes the index agrees with a fresh scan', async () => {
  const root = tempRoot();
  const ids = await writeTaskFiles(root, 100);
  const index = await open(root, { rescanIntervalMs: 60_000 });
  await index.watching;
  const store = createStore({ root });
  const moves = ids.map((id, i) =>
    store.commit(id, (cur) => ({ task: cur.task, body: cur.body, status: i % 3 ? 'ready' : 'blocked' }), 'test'),
  );
  const writes = Array.from({ length: 100 }, (_, i) => {
    const id = `TASK-2026-01-01-${200 + i}`;
    return Promise.resolve().then(() =>
      writeFileSync(toPaths(root).taskFile('ready', id), taskText(id, 'ready', `Burst ${i}`)),
    );
  });
  await Promise.all([...moves, ...writes]);
  const truth = await scan(root);
  await within(5000, () => JSON.stringify(view(index)) === JSON.stringify(truth), 'the watcher to catch up');
  await index.refresh();
  assert.equal(view(index), truth);
  assert.equal(index.counts(), {
    backlog: 0,
    ready: 166,
    'in-progress': 0,
    blocked: 34,
    done: 0,
    deadletter: 0,
    cancelled: 0,
  });
});

changes.run();
