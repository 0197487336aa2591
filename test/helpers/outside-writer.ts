// A writer outside the daemon, in a process of its own: `node --import tsx outside-writer.ts <job> <root> ...`.
// hold <id> <ms>: holds the task's lock directory that long; bump <id> <n>: n commits adding 1 to metadata.count;
// daemon-bump <id> <n>: the same as a second daemon sharing the tree; create <n>: n creates; alloc-one|alloc-block <n> [<k>]: n ids one at a time or in blocks, printed (after k, waits to be killed).
import { setTimeout as sleep } from 'node:timers/promises';
import { withLock } from '../../lib/fs/lock/lock.js';
import { allocateId, createBlockAllocator } from '../../lib/store/commit/allocate.js';
import { createStore } from '../../lib/store/commit/store.js';

const [job, root, id, amount] = process.argv.slice(2) as [string, string, string, string];
const store = createStore({ root });

if (job === 'hold') {
  const { paths } = store;
  await withLock(paths.lockFile(id), { what: id, waitMs: 5000, fence: true }, async () => {
    console.log('held');
    await sleep(Number(amount));
  });
  console.log('released');
} else if (job === 'alloc-one' || job === 'alloc-block') {
  // id here is how many ids to allocate; amount, when given, how many to print before waiting to be killed
  const allocate = job === 'alloc-one' ? allocateId : createBlockAllocator();
  for (let i = 0; i < Number(id); i++) {
    console.log(`id ${await allocate(store.paths, new Date())}`);
    if (amount !== undefined && i + 1 === Number(amount)) await sleep(600_000);
  }
  console.log('done');
} else if (job === 'create') {
  for (let i = 0; i < Number(id); i++)
    console.log(`id ${(await store.create({ title: `outside ${i}`, createdBy: 'outside' })).task.id}`);
  console.log('done');
} else if (job === 'bump') {
  for (let i = 0; i < Number(amount); i++) await store.commit(id, bump, 'outside');
  console.log('done');
} else if (job === 'daemon-bump') {
  // a second daemon's store on the same tree (its own data/ elsewhere): it holds a tree of its own, it believes
  const other = createStore({ root, treeHeld: () => true });
  for (let i = 0; i < Number(amount); i++) await other.commit(id, bump, 'second daemon');
  console.log('done');
}

function bump(current: Parameters<Parameters<typeof store.commit>[1]>[0]) {
  const count = Number(current.task.metadata.count ?? 0) + 1;
  return {
    task: { ...current.task, metadata: { ...current.task.metadata, count } },
    body: current.body,
    status: current.status,
  };
}
