import { lstatSync, renameSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { fromFileStamp } from '../../../lib/store/index/own-writes.js';
import { toStamp } from '../../../lib/store/index/entry.js';
import type { IndexChange } from '../../../lib/store/index/tasks.js';
import { taskText, writeTaskFiles } from '../../helpers/daemon.js';
import { tempRoot, within } from '../../helpers/root.js';
import { closeIndexes, open } from './tasks-fixture.js';

// The daemon's own commits reach the index from their results, and the watcher's echoes of them are dropped.
const own = suite('store.createTaskIndex own writes');
own.after.each(closeIndexes);

/**
 * A commit through a real store, in flight for the index as the daemon marks it, whose result is handed to `apply`
 * with another title than the file's: an entry with that title was taken from the result, not read from the disk.
 */
async function commitOwn(root: string, options: { title: string } = { title: 'From the result' }) {
  const store = createStore({ root });
  const made = await store.create({ title: 'On disk', createdBy: 'test' });
  const id = made.task.id;
  let busy = false;
  const changes: IndexChange[] = [];
  const index = await open(root, {
    rescanIntervalMs: 60_000,
    inFlight: (inFlight) => busy && inFlight === id,
    onChange: (change) => changes.push(change),
  });
  await index.watching;
  busy = true;
  const result = await store.commit(id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'test');
  index.apply({ ...result.after, task: { ...result.after.task, title: options.title } });
  busy = false;
  index.settled(id);
  return { index, id, result, changes };
}

own('a commit result sets the entry as it is: no read of the file, and a refresh finds nothing to read', async () => {
  const root = tempRoot();
  const { index, id, changes } = await commitOwn(root);
  assert.is(index.get(id)?.status, 'ready');
  assert.is(index.get(id)?.title, 'From the result');
  assert.equal(changes, [{ id, from: 'backlog', to: 'ready' }]);
  await index.refresh();
  assert.is(index.get(id)?.title, 'From the result', 'the stamp is the file on disk: nothing changed to re-read');
});

own("the watcher's events of the daemon's own write are dropped, not read again", async () => {
  const root = tempRoot();
  const { index, id } = await commitOwn(root);
  // Events arrive in order: once a later file in the same directory is in the index, the commit's events were seen.
  const marker = 'TASK-2026-01-01-900';
  writeFileSync(toPaths(root).taskFile('ready', marker), taskText(marker, 'ready', 'Marker'));
  await within(3000, () => index.get(marker), 'the marker in the index');
  await index.close(); // waits for every update under way
  assert.is(index.get(id)?.title, 'From the result');
});

own("a hand edit right after the daemon's write is still seen, by rename or in place", async () => {
  const root = tempRoot();
  const { index, id, result } = await commitOwn(root);
  const path = result.after.path;
  const text = taskText(id, 'ready', 'By hand');
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
  await within(3000, () => index.get(id)?.title === 'By hand', 'the renamed hand edit in the index');
  writeFileSync(path, taskText(id, 'ready', 'By hand, in place'));
  await within(3000, () => index.get(id)?.title === 'By hand, in place', 'the edit in place in the index');
});

own('a result older than the entry (two commits answered out of order) is not applied', async () => {
  const root = tempRoot();
  const { index, id, result } = await commitOwn(root, { title: 'First' });
  const store = createStore({ root, clock: () => new Date(Date.now() + 60_000) });
  const later = await store.commit(id, (cur) => ({ task: cur.task, body: cur.body, status: 'blocked' }), 'test');
  index.apply(later.after);
  index.apply(result.after);
  assert.is(index.get(id)?.status, 'blocked');
});

own("a store's file stamp is the index's stamp of the same file", async () => {
  const root = tempRoot();
  const ids = await writeTaskFiles(root, 20);
  for (const id of ids) {
    const path = toPaths(root).taskFile('backlog', id);
    const big = lstatSync(path, { bigint: true });
    assert.is(fromFileStamp({ ino: big.ino, size: big.size, mtimeNs: big.mtimeNs }), toStamp(lstatSync(path)));
  }
  assert.is(fromFileStamp({ ino: 0n, size: 0n, mtimeNs: 0n }), null);
});

own.run();
