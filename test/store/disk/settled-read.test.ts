import { writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { readTaskFileSettled } from '../../../lib/store/disk/settled-read.js';
import { initTree } from '../../../lib/store/commit/store.js';
import { createTaskIndex, type TaskIndex } from '../../../lib/store/index/tasks.js';
import { taskText } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

const ID = 'TASK-2026-01-01-001';
/** What a reader sees of a file rewritten longer on another host while its old size is cached: the first bytes. */
const cut = (text: string) => text.slice(0, text.indexOf('title:') + 3);

const settled = suite('store.readTaskFileSettled');
settled.after.each(cleanRoots);

settled('a file that fails to parse is read again after the pause, and what parses then is the task', async () => {
  const paths = toPaths(tempRoot());
  await initTree(paths);
  const path = paths.taskFile('ready', ID);
  const whole = taskText(ID, 'ready', 'Grown on another host');
  writeFileSync(path, cut(whole));
  let pauses = 0;
  const stored = await readTaskFileSettled(path, async () => {
    pauses++;
    writeFileSync(path, whole);
  });
  assert.is(pauses, 1);
  assert.is(stored.task.title, 'Grown on another host');
});

settled('a file that still fails after the pause is judged invalid with its problems', async () => {
  const paths = toPaths(tempRoot());
  await initTree(paths);
  const path = paths.taskFile('ready', ID);
  writeFileSync(path, cut(taskText(ID, 'ready', 'Broken for good')));
  let pauses = 0;
  try {
    await readTaskFileSettled(path, async () => void pauses++);
    assert.unreachable('should throw');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'validation_error');
    assert.match((err as Error).message, path);
  }
  assert.is(pauses, 1);
});

settled('a file that is gone is not waited for: ENOENT at once', async () => {
  const paths = toPaths(tempRoot());
  await initTree(paths);
  let pauses = 0;
  try {
    await readTaskFileSettled(paths.taskFile('ready', ID), async () => void pauses++);
    assert.unreachable('should throw');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'ENOENT');
  }
  assert.is(pauses, 0);
});

const index = suite('store.createTaskIndex (second read)');
const open: TaskIndex[] = [];
index.after.each(async () => {
  await Promise.all(open.splice(0).map((one) => one.close()));
  cleanRoots();
});

index('a task file that parses on the second read is never reported invalid, at start or when it lands', async () => {
  const paths = toPaths(tempRoot());
  await initTree(paths);
  const second = 'TASK-2026-01-01-002';
  writeFileSync(paths.taskFile('ready', ID), cut(taskText(ID, 'ready', 'At start')));
  const invalid: string[] = [];
  const fixes = new Map([
    [ID, taskText(ID, 'ready', 'At start')],
    [second, taskText(second, 'ready', 'Landed later')],
  ]);
  const one = await createTaskIndex(paths, {
    onInvalid: (file) => invalid.push(file.path),
    beforeReread: async () => {
      for (const [id, text] of fixes) writeFileSync(paths.taskFile('ready', id), text);
    },
  });
  open.push(one);
  assert.is(one.get(ID)?.title, 'At start');
  await one.watching;
  fixes.delete(ID);
  writeFileSync(paths.taskFile('ready', second), cut(taskText(second, 'ready', 'Landed later')));
  await within(5000, () => one.get(second)?.title === 'Landed later', 'the second task in the index');
  assert.equal(invalid, []);
  assert.equal(one.invalid(), []);
});

index('a file still broken on the second read is reported once', async () => {
  const paths = toPaths(tempRoot());
  await initTree(paths);
  writeFileSync(paths.taskFile('ready', ID), cut(taskText(ID, 'ready', 'Broken')));
  const invalid: string[] = [];
  let pauses = 0;
  const one = await createTaskIndex(paths, {
    onInvalid: (file) => invalid.push(file.path),
    beforeReread: async () => void pauses++,
  });
  open.push(one);
  assert.equal(invalid, [paths.taskFile('ready', ID)]);
  assert.is(pauses, 1);
  assert.is(one.get(ID), undefined);
});

settled.run();
index.run();
