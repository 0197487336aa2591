import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { taskLookupCount } from '../../lib/store/commit/copies.js';
import { createStore, type Store } from '../../lib/store/commit/store.js';
import { closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

/** How many task paths a `get` of `id` looked at. */
async function lookupsOfGet(store: Store, id: string): Promise<number> {
  const before = taskLookupCount();
  await store.get(id);
  return taskLookupCount() - before;
}

const hint = suite('daemon: the store looks where the index saw a task');
hint.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

hint(
  'a change through the daemon looks at one path; after a move by hand, at the new one once the index saw it',
  async () => {
    const root = tempRoot();
    const { task } = await createStore({ root }).create({ title: 'Where', createdBy: 'test' });
    const daemon = await startTestDaemon(root, { schedule: false });
    const block = () =>
      daemon.store.commit(task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'blocked' }), 'test');
    let before = taskLookupCount();
    await block();
    assert.is(taskLookupCount() - before, 1);

    renameSync(`${root}/tasks/blocked/${task.id}.md`, `${root}/tasks/backlog/${task.id}.md`);
    const result = await block(); // the index may not have seen the move yet: then the full look finds it
    assert.is(result.before.status, 'backlog');
    assert.ok(existsSync(`${root}/tasks/blocked/${task.id}.md`));
    // once the index saw the change (and the healer went through an id it saw twice mid-move), one lookup again
    await within(5000, () => daemon.index.get(task.id)?.status === 'blocked', 'the index saw the change');
    await within(5000, async () => (await lookupsOfGet(daemon.store, task.id)) === 1, 'one lookup');
  },
);

hint(
  'a second copy made by hand while the daemon runs is resolved: the newer kept, the older to conflicts',
  async () => {
    const root = tempRoot();
    const { task } = await createStore({ root }).create({ title: 'Twice', createdBy: 'test' });
    const daemon = await startTestDaemon(root, { schedule: false });
    await within(5000, () => daemon.index.get(task.id)?.status === 'backlog', 'indexed');
    const older = readFileSync(`${root}/tasks/backlog/${task.id}.md`, 'utf8');
    writeFileSync(
      `${root}/tasks/ready/${task.id}.md`,
      older
        .replace('status: backlog', 'status: ready')
        .replace(/updatedAt: '[^']+'/, "updatedAt: '2099-01-01T00:00:00.000Z'"),
    );
    await within(5000, () => !existsSync(`${root}/tasks/backlog/${task.id}.md`), 'the older copy moved away');
    assert.ok(existsSync(`${root}/tasks/ready/${task.id}.md`));
    assert.is(readFileSync(`${root}/data/conflicts/${readdirSync(`${root}/data/conflicts`)[0]}`, 'utf8'), older);
    assert.is((await daemon.store.get(task.id)).status, 'ready');
    await within(5000, async () => (await lookupsOfGet(daemon.store, task.id)) === 1, 'the hint again once healed');
  },
);

hint.run();
