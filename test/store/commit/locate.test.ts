import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Status } from '../../../lib/core/status.js';
import { taskLookupCount } from '../../../lib/store/commit/copies.js';
import { createStore, type Store } from '../../../lib/store/commit/store.js';
import { cleanRoots, fixedClock, tempRoot } from '../../helpers/root.js';

/** A store told where each task is, as the daemon tells it from its index; `hints` is what it believes. */
function hintedStore(root: string): { store: Store; hints: Map<string, Status> } {
  const hints = new Map<string, Status>();
  return { store: createStore({ root, clock: fixedClock(), whereIs: (id) => hints.get(id) }), hints };
}

/** How many task paths `fn` looked at. */
async function lookupsOf(fn: () => Promise<unknown>): Promise<number> {
  const before = taskLookupCount();
  await fn();
  return taskLookupCount() - before;
}

const toBlocked = (store: Store, id: string) =>
  store.commit(id, (cur) => ({ task: cur.task, body: cur.body, status: 'blocked' }), 'tester');

const locate = suite('store.locate with a hint');
locate.after.each(cleanRoots);

locate(
  'a change of a task where the hint says it is looks at one path, where a change without a hint looks at 14',
  async () => {
    const root = tempRoot();
    const { store, hints } = hintedStore(root);
    const hinted = await store.create({ title: 'Hinted', createdBy: 'test', status: 'ready' });
    hints.set(hinted.task.id, 'ready');
    const result = await toBlocked(store, hinted.task.id);
    assert.is(result.after.status, 'blocked');
    hints.set(hinted.task.id, 'blocked');
    assert.is(await lookupsOf(() => toBlocked(store, hinted.task.id)), 1, 'resolve looks nowhere, the re-read once');
    assert.is(await lookupsOf(() => store.get(hinted.task.id)), 1);

    const plain = createStore({ root, clock: fixedClock() });
    assert.is(await lookupsOf(() => toBlocked(plain, hinted.task.id)), 14, 'resolve and the re-read look in all 7');
  },
);

locate(
  'a task moved by hand after the hint was taken is still found, in its new directory, and changed there',
  async () => {
    const root = tempRoot();
    const { store, hints } = hintedStore(root);
    const { task } = await store.create({ title: 'Moved by hand', createdBy: 'test', status: 'ready' });
    hints.set(task.id, 'ready');
    renameSync(`${root}/tasks/ready/${task.id}.md`, `${root}/tasks/backlog/${task.id}.md`);
    let seen: Status | undefined;
    const result = await store.commit(
      task.id,
      (cur) => {
        seen = cur.status;
        return { task: { ...cur.task, title: 'Found' }, body: cur.body, status: cur.status };
      },
      'tester',
    );
    assert.is(seen, 'backlog');
    assert.is(result.after.path, `${root}/tasks/backlog/${task.id}.md`);
    assert.match(readFileSync(result.after.path, 'utf8'), /\ntitle: Found\nstatus: backlog\n/);
    assert.not.ok(existsSync(`${root}/tasks/ready/${task.id}.md`));
    assert.is((await store.get(task.id)).status, 'backlog', 'get falls back to the full look too');
  },
);

locate('a hinted file that does not parse is looked past: the full look finds the copy that does', async () => {
  const root = tempRoot();
  const { store, hints } = hintedStore(root);
  const { task } = await store.create({ title: 'Half written', createdBy: 'test', status: 'ready' });
  writeFileSync(`${root}/tasks/blocked/${task.id}.md`, '---\ntitle: [\n');
  hints.set(task.id, 'blocked');
  try {
    await toBlocked(store, task.id);
    assert.unreachable('changed');
  } catch (err) {
    // the broken copy is never overwritten: the full look refuses, as it does without a hint
    assert.match((err as Error).message, `${task.id} has another copy that does not parse`);
  }
  assert.is(readFileSync(`${root}/tasks/blocked/${task.id}.md`, 'utf8'), '---\ntitle: [\n');
});

locate(
  'without a hint (the index saw a second copy) the re-read resolves the two copies, the older to conflicts',
  async () => {
    const root = tempRoot();
    const { store, hints } = hintedStore(root);
    const { task } = await store.create({ title: 'Twice', createdBy: 'test', status: 'ready' });
    const text = readFileSync(`${root}/tasks/ready/${task.id}.md`, 'utf8');
    writeFileSync(
      `${root}/tasks/backlog/${task.id}.md`,
      text
        .replace('status: ready', 'status: backlog')
        .replace(/updatedAt: '[^']+'/, "updatedAt: '2099-01-01T00:00:00.000Z'"),
    );
    hints.delete(task.id);
    const result = await toBlocked(store, task.id);
    assert.is(result.before.status, 'backlog', 'the newer copy won');
    assert.not.ok(existsSync(`${root}/tasks/ready/${task.id}.md`));
    assert.is(readdirSync(`${root}/data/conflicts`).length, 1);
  },
);

locate.run();
