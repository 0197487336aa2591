import { mkdirSync, readlinkSync, symlinkSync, utimesSync } from 'node:fs';
import { hostname } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withLock } from '../../../lib/fs/lock/lock.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { killWorkers, startWorker } from '../../helpers/children.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

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
  const err = await store
    .commit(task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'test')
    .then(
      () => null,
      (e: { code: string; message: string }) => e,
    );
  assert.is(err?.code, 'locked');
  assert.match(
    err!.message,
    new RegExp(
      `^${task.id} is locked by another writer: pid ${holder.child.pid} on this host \\(running\\), refreshed \\d+\\.\\d s ago; it counts as stale in \\d+\\.\\d s \\(10 s without a refresh\\)\\.$`,
    ),
  );
});

lock('a lock held for a moment is waited for: the second writer gets it once the first lets go', async () => {
  const path = `${tempRoot()}/locks/TASK-1.lock`;
  const order: string[] = [];
  let entered!: () => void;
  const holding = new Promise<void>((resolve) => (entered = resolve));
  const first = withLock(path, { what: 'TASK-1' }, async () => {
    order.push('first in');
    entered();
    await new Promise((resolve) => setTimeout(resolve, 300));
    order.push('first out');
  });
  await holding;
  await withLock(path, { what: 'TASK-1', waitMs: 5000 }, async () => void order.push('second in'));
  await first;
  assert.equal(order, ['first in', 'first out', 'second in']);
});

lock('the owner record names the host and pid of the holder', async () => {
  const path = `${tempRoot()}/locks/TASK-1.lock`;
  const owner = await withLock(path, { what: 'TASK-1' }, async () => readlinkSync(`${path}/owner`));
  assert.is(owner, `${hostname()} ${process.pid}`);
});

lock('a lock owned on another host is taken over by staleness only, however its pid looks here', async () => {
  const path = `${tempRoot()}/locks/TASK-1.lock`;
  mkdirSync(path, { recursive: true });
  symlinkSync('another-host.example 999999999', `${path}/owner`); // no such pid here: it must not matter
  const err = await withLock(path, { what: 'TASK-1', waitMs: 200 }, async () => 'taken').catch(
    (e: { code: string; message: string }) => e,
  );
  assert.is((err as { code: string }).code, 'locked');
  assert.match((err as Error).message, 'pid 999999999 on host another-host.example');
  const old = new Date(Date.now() - 15_000);
  utimesSync(path, old, old); // nobody refreshed it for 15 s
  assert.is(await withLock(path, { what: 'TASK-1', waitMs: 200 }, async () => 'taken'), 'taken');
});

lock('a lock whose owner died on this host is taken over at once', async () => {
  const path = `${tempRoot()}/locks/TASK-1.lock`;
  mkdirSync(path, { recursive: true });
  symlinkSync(`${hostname()} 999999999`, `${path}/owner`);
  assert.is(await withLock(path, { what: 'TASK-1', waitMs: 0 }, async () => 'taken'), 'taken');
});

lock(
  'a lock without its owner record (its writer killed between making it and recording itself) is taken over at once after 3 s, not after 10',
  async () => {
    const path = `${tempRoot()}/locks/TASK-1.lock`;
    mkdirSync(path, { recursive: true }); // what a writer SIGKILLed right after its mkdir leaves
    const fresh = await withLock(path, { what: 'TASK-1', waitMs: 200 }, async () => 'taken').catch(
      (e: { code: string }) => e.code,
    );
    assert.is(fresh, 'locked', 'a lock this young may be a live writer about to record itself');
    const old = new Date(Date.now() - 4000);
    utimesSync(path, old, old);
    assert.is(
      await withLock(path, { what: 'TASK-1', waitMs: 0 }, async () => readlinkSync(`${path}/owner`)),
      `${hostname()} ${process.pid}`,
    );
  },
);

lock.run();
