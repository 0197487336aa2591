import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SvcError } from '../../../lib/core/errors.js';
import { dirSyncCount } from '../../../lib/fs/fsync-dir.js';
import { writeBatched } from '../../../lib/store/commit/batch.js';
import { createTaskFile } from '../../../lib/store/commit/create.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';
import { fillDisk, mountTmpfs, unmountAll } from '../../helpers/tmpfs.js';

const batch = suite('store.writeBatched');
batch.after.each(cleanRoots);

batch('16 writes queued in one turn into one directory make one directory fsync, each answered after it', async () => {
  const dir = tempRoot();
  const before = dirSyncCount();
  const answeredAfter: number[] = [];
  await Promise.all(
    Array.from({ length: 16 }, (_, i) =>
      writeBatched({ path: `${dir}/f${i}.md`, content: `file ${i}\n` }).then(() => answeredAfter.push(dirSyncCount())),
    ),
  );
  assert.is(dirSyncCount() - before, 1);
  assert.ok(
    answeredAfter.every((count) => count === before + 1),
    'no write is answered before the fsync',
  );
  for (let i = 0; i < 16; i++) assert.is(readFileSync(`${dir}/f${i}.md`, 'utf8'), `file ${i}\n`);
  assert.equal(readdirSync(dir).sort(), Array.from({ length: 16 }, (_, i) => `f${i}.md`).sort(), 'no temporary left');
});

batch('writes into two directories make one fsync per directory', async () => {
  const root = tempRoot();
  mkdirSync(`${root}/a`);
  mkdirSync(`${root}/b`);
  const before = dirSyncCount();
  await Promise.all(
    Array.from({ length: 8 }, (_, i) => writeBatched({ path: `${root}/${i % 2 ? 'a' : 'b'}/f${i}.md`, content: 'x' })),
  );
  assert.is(dirSyncCount() - before, 2);
});

batch('exclusive creates racing for one name in one batch: one wins, the others are told it is taken', async () => {
  const dir = tempRoot();
  const results = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      writeBatched({ path: `${dir}/TASK-1.md`, content: `writer ${i}\n`, exclusive: true }),
    ),
  );
  assert.is(results.filter(Boolean).length, 1);
  assert.is(readFileSync(`${dir}/TASK-1.md`, 'utf8'), `writer ${results.indexOf(true)}\n`);
  assert.is(await writeBatched({ path: `${dir}/TASK-1.md`, content: 'late\n', exclusive: true }), false);
  assert.is(readFileSync(`${dir}/TASK-1.md`, 'utf8'), `writer ${results.indexOf(true)}\n`, 'never replaced');
  assert.equal(readdirSync(dir), ['TASK-1.md'], 'no temporary left');
});

batch('a write that fails fails alone: the others of its batch are written', async () => {
  const dir = tempRoot();
  const results = await Promise.allSettled([
    writeBatched({ path: `${dir}/a.md`, content: 'a' }),
    writeBatched({ path: `${dir}/missing/b.md`, content: 'b' }),
    writeBatched({ path: `${dir}/c.md`, content: 'c', exclusive: true }),
  ]);
  assert.equal(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  assert.is((results[1] as PromiseRejectedResult).reason.code, 'ENOENT');
  assert.equal(readdirSync(dir).sort(), ['a.md', 'c.md']);
});

batch('a replaced file keeps its mode, and a symlink at the path is replaced, never written through', async () => {
  const dir = tempRoot();
  writeFileSync(`${dir}/kept.md`, 'old');
  chmodSync(`${dir}/kept.md`, 0o640);
  writeFileSync(`${dir}/elsewhere`, 'untouched');
  symlinkSync(`${dir}/elsewhere`, `${dir}/linked.md`);
  await Promise.all([
    writeBatched({ path: `${dir}/kept.md`, content: 'new' }),
    writeBatched({ path: `${dir}/linked.md`, content: 'new' }),
  ]);
  assert.is(lstatSync(`${dir}/kept.md`).mode & 0o777, 0o640);
  assert.ok(lstatSync(`${dir}/linked.md`).isFile());
  assert.is(readFileSync(`${dir}/elsewhere`, 'utf8'), 'untouched');
});

batch('the fault points mark the steps of a batch: some temporaries, all, some renames, synced', async () => {
  const dir = tempRoot();
  const points: string[] = [];
  const fault = (point: string, detail?: string) => points.push(detail ? `${point}@${detail}` : point);
  await Promise.all(
    Array.from({ length: 3 }, (_, i) => writeBatched({ path: `${dir}/f${i}.md`, content: 'x', fault, cause: 'test' })),
  );
  assert.equal(points, [
    'batch.temp-written@test',
    'batch.temp-written@test',
    'batch.temps-written',
    'batch.renamed@test',
    'batch.renamed@test',
    'batch.synced',
  ]);
  points.length = 0;
  await writeBatched({ path: `${dir}/alone.md`, content: 'x', fault, cause: 'test' });
  assert.equal(points, ['batch.temps-written', 'batch.synced'], 'a batch of one is never half written');
});

const store = suite('store: changes through the batch');
store.after.each(() => {
  unmountAll();
  cleanRoots();
});

store('16 concurrent transitions into one directory make at most 2 directory fsyncs', async () => {
  const root = tempRoot();
  const tasks = createStore({ root });
  const ids: string[] = [];
  for (let i = 0; i < 16; i++) ids.push((await tasks.create({ title: `Moved ${i}`, createdBy: 'test' })).task.id);
  const before = dirSyncCount();
  await Promise.all(
    ids.map((id) => tasks.commit(id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'test')),
  );
  const syncs = dirSyncCount() - before;
  assert.ok(syncs >= 1 && syncs <= 2, `${syncs} directory fsyncs`);
  for (const id of ids) assert.is((await tasks.get(id)).status, 'ready');
});

store('creates of one id racing through the batch: one file, the others told the id is taken', async () => {
  const root = tempRoot();
  const tasks = createStore({ root });
  await tasks.init();
  const { task } = await tasks.create({ title: 'Model', createdBy: 'test' });
  const id = `${task.id.slice(0, -3)}999`;
  const made = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      createTaskFile(tasks.paths, { task: { ...task, id, title: `Racer ${i}` }, body: '' }),
    ),
  );
  const won = made.filter((m) => m !== null);
  assert.is(won.length, 1);
  assert.is((await tasks.get(id)).task.title, won[0]!.task.title);
  assert.equal(
    readdirSync(tasks.paths.statusDir('backlog')).filter((name) => name.includes(id)),
    [`${id}.md`],
  );
});

store('moves in one batch on a full disk each fail as no_space naming their target, leaving no temporary', async () => {
  const root = mountTmpfs('2m');
  const tasks = createStore({ root });
  const ids: string[] = [];
  for (let i = 0; i < 4; i++)
    ids.push((await tasks.create({ title: `Full ${i}`, body: 'b'.repeat(9000), createdBy: 'test' })).task.id);
  const free = fillDisk(root);
  const moveAll = () =>
    Promise.allSettled(
      ids.map((id) => tasks.commit(id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'test')),
    );
  const failed = await moveAll();
  failed.forEach((result, i) => {
    assert.is(result.status, 'rejected');
    const err = (result as PromiseRejectedResult).reason as SvcError;
    assert.is(err.code, 'no_space');
    assert.match(err.message, `tasks/ready/${ids[i]}.md`);
  });
  assert.equal(readdirSync(tasks.paths.statusDir('ready')), ['.gitkeep'], 'no temporary, no partial file');
  free();
  assert.ok((await moveAll()).every((result) => result.status === 'fulfilled'));
  for (const id of ids) assert.is((await tasks.get(id)).status, 'ready');
});

batch.run();
store.run();
