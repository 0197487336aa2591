import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { archiveTasks } from '../../../lib/store/changes/archive.js';
import { getArchived, listArchived } from '../../../lib/store/listing/archived.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { closeTask } from '../../../lib/store/changes/work.js';
import { SVC_BIN } from '../../helpers/agents.js';
import { cleanRoots, fixedClock, tempRoot } from '../../helpers/root.js';

const archive = suite('store.archiveTasks');
archive.after.each(cleanRoots);

archive('an id archived today is not handed out again after a fresh clone (no tasks/.seq/)', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const { task } = await store.create({ title: 'Short-lived', createdBy: 'test' });
  await closeTask(store, task.id, { actor: 'operator' });
  const report = await archiveTasks(store, { before: new Date(Date.now() + 60_000), actor: 'operator' });
  assert.equal(
    report.moved.map((move) => move.id),
    [task.id],
  );
  rmSync(store.paths.seq, { recursive: true, force: true });
  // Another process (this one remembers the next number): the built command line, on the same day.
  const created = spawnSync(process.execPath, [SVC_BIN, 'task', 'create', 'After the clone'], {
    env: { ...process.env, SVC_HOME: root },
    encoding: 'utf8',
  });
  assert.is(created.status, 0, created.stderr);
  assert.is(created.stdout.split('\n')[0], task.id.replace(/001$/, '002'));
});

archive('getArchived resolves an id argument among archived tasks only', async () => {
  const root = tempRoot();
  const clock = fixedClock('2026-10-05T10:00:00.000Z');
  const store = createStore({ root, clock });
  const { task } = await store.create({ title: 'Kept for the record', body: 'Findings.', createdBy: 'test' });
  await closeTask(store, task.id, { actor: 'operator' });
  clock.set('2026-11-21T10:00:00.000Z');
  await archiveTasks(store, { before: new Date('2026-11-01T00:00:00Z'), actor: 'operator' });
  assert.equal([...listArchived(store.paths).keys()], [task.id]);
  const found = getArchived(store.paths, '-001', store.clock());
  assert.equal(
    [found.task.id, found.status, found.body.trim(), existsSync(found.path)],
    [task.id, 'done', 'Findings.', true],
  );
  assert.throws(() => getArchived(store.paths, '002', store.clock()), /No task has the sequence number "002"/);
});

archive('a copy left by a crash before the unlink is completed; a different one is refused', async () => {
  const root = tempRoot();
  const clock = fixedClock('2026-10-05T10:00:00.000Z');
  const store = createStore({ root, clock });
  const a = (await store.create({ title: 'A', createdBy: 'test' })).task.id;
  const b = (await store.create({ title: 'B', createdBy: 'test' })).task.id;
  for (const id of [a, b]) await closeTask(store, id, { actor: 'operator' });
  mkdirSync(store.paths.archiveDir('2026-10'), { recursive: true });
  copyFileSync(store.paths.taskFile('done', a), store.paths.archiveFile('2026-10', a));
  writeFileSync(store.paths.archiveFile('2026-10', b), 'something else');
  const report = await archiveTasks(store, { before: new Date('2026-11-01T00:00:00Z'), actor: 'operator' });
  assert.equal(
    report.moved.map((move) => move.id),
    [a],
  );
  assert.equal(
    report.refused.map((skip) => [skip.id, skip.code]),
    [[b, 'validation_error']],
  );
  assert.equal(
    [existsSync(store.paths.taskFile('done', a)), existsSync(store.paths.taskFile('done', b))],
    [false, true],
  );
});

archive.run();
