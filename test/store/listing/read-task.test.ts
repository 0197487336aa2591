import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { readTask } from '../../../lib/store/listing/read-task.js';
import { taskText, writeTaskFiles } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const NOW = new Date('2026-01-01T12:00:00.000Z');

const read = suite('store.readTask');
read.after.each(() => cleanRoots());

read('reads a task by full id, bare sequence or prefix, with the directory as its status', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 3, (i) => (i === 2 ? 'ready' : 'backlog'));
  const paths = toPaths(root);
  assert.is((await readTask(paths, 'TASK-2026-01-01-002', NOW)).status, 'ready');
  assert.is((await readTask(paths, '-002', NOW)).task.id, 'TASK-2026-01-01-002');
  assert.is((await readTask(paths, '2026-01-01-003', NOW)).task.title, 'Task 3');
  renameSync(paths.taskFile('ready', 'TASK-2026-01-01-002'), paths.taskFile('done', 'TASK-2026-01-01-002'));
  assert.is((await readTask(paths, '2', NOW)).status, 'done', 'moved by hand: the directory is the status');
});

read(
  'an id in two directories yields its newer copy; an archived task is found; an unknown one is not_found',
  async () => {
    const root = tempRoot();
    const [id] = await writeTaskFiles(root, 1, () => 'ready');
    const paths = toPaths(root);
    writeFileSync(
      paths.taskFile('done', id!),
      taskText(id!, 'done', 'Finished').replace(/updatedAt: .*/, "updatedAt: '2026-02-01T00:00:00.000Z'"),
    );
    assert.is((await readTask(paths, id!, NOW)).task.title, 'Finished');
    mkdirSync(paths.archiveDir('2025-12'), { recursive: true });
    writeFileSync(
      paths.archiveFile('2025-12', 'TASK-2025-12-01-001'),
      taskText('TASK-2025-12-01-001', 'done', 'Old one'),
    );
    const archived = await readTask(paths, 'TASK-2025-12-01-001', NOW);
    assert.is(archived.path, paths.archiveFile('2025-12', 'TASK-2025-12-01-001'));
    await readTask(paths, 'TASK-2026-05-05-005', NOW).then(
      () => assert.unreachable('found'),
      (err: { code?: string }) => assert.is(err.code, 'not_found'),
    );
  },
);

read('a task file that does not parse is a validation_error naming the file', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const paths = toPaths(root);
  writeFileSync(paths.taskFile('backlog', 'TASK-2026-01-01-001'), 'not a task\n');
  await readTask(paths, 'TASK-2026-01-01-001', NOW).then(
    () => assert.unreachable('read'),
    (err: { code?: string; message: string }) => {
      assert.is(err.code, 'validation_error');
      assert.match(err.message, /TASK-2026-01-01-001\.md/);
    },
  );
});

read.run();
