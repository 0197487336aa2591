import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/store.js';
import { killWorkers, startWorker } from '../helpers/children.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const lock = suite('fs.withLock');
lock.after.each(async () => {
  await killWorkers();
  cleanRoots();
});

lock('a lock held by a live process says who holds it and how long until it counts as stale', async () => {
  const root = tempRoot();
  const store = createStore({ root, lockWaitMs: 100 });
  const { task } = await store.create({ title: 'Held', createdBy: 'test' });
  const holder = startWorker({ op: 'hold', root, id: task.id, status: 'backlog' });
  await holder.waitFor(/^holding$/);
  const err = await store.commit(task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'test').then(() => null, (e: { code: string; message: string }) => e);
  assert.is(err?.code, 'locked');
  assert.match(err!.message, new RegExp(`^${task.id} is locked by another writer: pid ${holder.child.pid} on this host \\(running\\), refreshed \\d+\\.\\d s ago; it counts as stale in \\d+\\.\\d s \\(10 s without a refresh\\)\\.$`));
});

lock.run();
