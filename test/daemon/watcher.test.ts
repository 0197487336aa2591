import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { watchTree, type WatchEvent } from '../../lib/fs/watcher.js';
import { initTree } from '../../lib/store/commit/store.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// test/daemon holds the watcher's tests: it is the daemon's latency hint (lib/fs/watcher.ts).
const watch = suite('fs.watchTree');
watch.after.each(cleanRoots);

async function watched(statuses?: ('ready' | 'backlog')[]) {
  const root = tempRoot();
  const paths = toPaths(root);
  await initTree(paths);
  const events: WatchEvent[] = [];
  const watcher = watchTree(paths.tasks, (event) => events.push(event), statuses ? { statuses } : {});
  await watcher.ready;
  const seen = () =>
    events.map((e) => (e.type === 'error' ? `error ${e.error.message}` : `${e.type} ${e.status} ${e.id}`));
  return { paths, events, watcher, seen };
}

watch('reports add, change and unlink of <id>.md with its status and id', async () => {
  const { paths, watcher, seen } = await watched();
  const file = join(paths.tasks, 'ready', 'TASK-1.md');
  writeFileSync(file, 'one');
  await within(3000, () => seen().includes('add ready TASK-1'));
  writeFileSync(file, 'two, longer');
  await within(3000, () => seen().includes('change ready TASK-1'));
  unlinkSync(file);
  await within(3000, () => seen().includes('unlink ready TASK-1'));
  await watcher.close();
});

watch('a move by another process is an unlink in one status and an add in the other', async () => {
  const { paths, watcher, seen } = await watched();
  writeFileSync(join(paths.tasks, 'backlog', 'TASK-2.md'), 'x');
  await within(3000, () => seen().includes('add backlog TASK-2'));
  execFileSync('mv', [join(paths.tasks, 'backlog', 'TASK-2.md'), join(paths.tasks, 'ready', 'TASK-2.md')]);
  await within(3000, () => seen().includes('unlink backlog TASK-2') && seen().includes('add ready TASK-2'));
  await watcher.close();
});

watch('ignores dotfiles, temporaries, other names, other directories and unwatched statuses', async () => {
  const { paths, watcher, seen } = await watched(['ready']);
  const ready = join(paths.tasks, 'ready');
  writeFileSync(join(ready, '.hidden.md'), 'x');
  writeFileSync(join(ready, 'TASK-3.md.12345'), 'x');
  writeFileSync(join(ready, 'TASK-3.md.99.ab.new'), 'x');
  writeFileSync(join(ready, 'notes.txt'), 'x');
  mkdirSync(join(paths.tasks, 'archive'));
  writeFileSync(join(paths.tasks, 'archive', 'TASK-4.md'), 'x');
  writeFileSync(join(paths.tasks, 'backlog', 'TASK-5.md'), 'x');
  renameSync(join(ready, 'TASK-3.md.12345'), join(ready, 'TASK-3.md'));
  await within(3000, () => seen().includes('add ready TASK-3'));
  assert.equal(seen(), ['add ready TASK-3']);
  await watcher.close();
});

watch('close stops the reports', async () => {
  const { paths, watcher, seen } = await watched();
  await watcher.close();
  const later: string[] = [];
  const witness = watchTree(paths.tasks, (event) => later.push(event.type));
  await witness.ready;
  writeFileSync(join(paths.tasks, 'ready', 'TASK-6.md'), 'x');
  await within(3000, () => later.includes('add'), 'a live watcher to see the write');
  assert.equal(seen(), []);
  await witness.close();
});

watch('rearm watches a status directory that was deleted and re-created', async () => {
  const { paths, watcher, seen } = await watched(['ready']);
  const ready = join(paths.tasks, 'ready');
  rmSync(ready, { recursive: true });
  mkdirSync(ready);
  watcher.rearm();
  writeFileSync(join(ready, 'TASK-7.md'), 'x');
  await within(3000, () => seen().includes('add ready TASK-7'));
  await watcher.close();
});

watch.run();
