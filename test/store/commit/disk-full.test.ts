import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isSvcError } from '../../../lib/core/errors.js';
import { appendEvents, readEvents } from '../../../lib/store/events/log.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { cleanRoots } from '../../helpers/root.js';
import { fillDisk, mountTmpfs, unmountAll } from '../../helpers/tmpfs.js';

/** Every file under `dir` whose name is a temporary of an interrupted write. */
function tempFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(new|tmp)$|\.md\.[^/]+$/.test(entry.name)) out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

/** Runs `fn`, which must fail with `no_space` naming a path that matches `where`. */
async function assertNoSpace(fn: () => Promise<unknown>, where: RegExp): Promise<void> {
  try {
    await fn();
  } catch (err) {
    assert.ok(isSvcError(err, 'no_space'), `no_space expected, got ${String(err)}`);
    assert.match((err as Error).message, /^No space left on device writing /);
    assert.match((err as Error).message, where);
    assert.ok((err as { hint?: string }).hint);
    return;
  }
  assert.unreachable('the write should fail for want of space');
}

const full = suite('store on a full disk');
full.after.each(() => {
  unmountAll();
  return cleanRoots();
});

full(
  'creates until the disk is full: each acknowledged task is there once, each failed one leaves nothing behind',
  async () => {
    const root = mountTmpfs('2m');
    const store = createStore({ root });
    const body = 'x'.repeat(20_000);
    const created: string[] = [];
    let failures = 0;
    for (let i = 0; i < 200 && failures < 20; i++) {
      try {
        created.push((await store.create({ title: `Task ${i}`, body, createdBy: 'test' })).task.id);
      } catch (err) {
        assert.ok(isSvcError(err, 'no_space'), `no_space expected, got ${String(err)}`);
        assert.match((err as Error).message, /No space left on device writing .*tasks\/backlog\/TASK-[\d-]+\.md/);
        failures++;
      }
    }
    assert.ok(created.length > 10, `some creates fit (${created.length})`);
    assert.ok(failures > 0, 'the disk filled up');
    assert.equal(tempFiles(root), []);
    const names = readdirSync(join(root, 'tasks', 'backlog'))
      .filter((n) => n.endsWith('.md'))
      .sort();
    assert.equal(names, created.map((id) => `${id}.md`).sort());
    for (const id of created) assert.ok((await store.get(id)).body.trim() === body, `${id} has its whole body`);
  },
);

full(
  'a move on a full disk fails naming its target, leaves the task where it was and no temporary; it works once space returns',
  async () => {
    const root = mountTmpfs('2m');
    const store = createStore({ root });
    const { task } = await store.create({ title: 'Move me', body: 'b'.repeat(9000), createdBy: 'test' });
    const before = readFileSync(join(root, 'tasks', 'backlog', `${task.id}.md`), 'utf8');
    const free = fillDisk(root);
    const move = () => store.commit(task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'test');
    await assertNoSpace(move, new RegExp(`tasks/ready/${task.id}\\.md`));
    assert.is(readFileSync(join(root, 'tasks', 'backlog', `${task.id}.md`), 'utf8'), before);
    assert.equal(
      readdirSync(join(root, 'tasks', 'ready')).filter((n) => n !== '.gitkeep'),
      [],
    );
    assert.equal(tempFiles(root), []);
    free();
    assert.is((await move()).after.status, 'ready');
    assert.equal(tempFiles(root), []);
  },
);

full(
  'an event append on a full disk fails whole: no torn line, and the next append after space returns is clean',
  async () => {
    const root = mountTmpfs('2m');
    const now = new Date('2026-11-21T10:00:00.000Z');
    await appendEvents(root, now, [{ type: 'first', actor: 't', payload: {} }]);
    const file = join(root, 'data', 'events', '2026-11-21.jsonl');
    const before = readFileSync(file, 'utf8');
    const free = fillDisk(root);
    const big = { type: 'big', actor: 't', payload: { text: 'y'.repeat(64 * 1024) } };
    await assertNoSpace(() => appendEvents(root, now, [big]), /data\/events\/2026-11-21\.jsonl/);
    assert.ok(readFileSync(file, 'utf8') === before, 'the log is byte for byte as before');
    free();
    await appendEvents(root, now, [{ type: 'after', actor: 't', payload: {} }]);
    assert.equal(
      (await readEvents(root)).map((e) => e.type),
      ['first', 'after'],
    );
    assert.ok(statSync(file).size > before.length);
  },
);

full('an id reservation on a disk without free inodes is no_space naming the reservation', async () => {
  const root = mountTmpfs('2m,nr_inodes=40');
  const store = createStore({ root });
  await store.init();
  const err = await store.create({ title: 'one', createdBy: 'test' }).then(
    () => null,
    (e: unknown) => e,
  );
  // 40 inodes hold the tree; the reservations and task files of the next creates run out of them
  let last: unknown = err;
  for (let i = 0; i < 50 && last === null; i++)
    last = await store.create({ title: `t${i}`, createdBy: 'test' }).then(
      () => null,
      (e: unknown) => e,
    );
  assert.ok(isSvcError(last, 'no_space'), `no_space expected, got ${String(last)}`);
  assert.match((last as Error).message, /No space left on device writing .*tasks\/(\.seq\/|\.locks\/|backlog\/)/);
  assert.equal(tempFiles(root), []);
});

full.run();
