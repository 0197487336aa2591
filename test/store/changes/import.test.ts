import { readFileSync, renameSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Task } from '../../../lib/core/task.js';
import { createImportedTask, updateImportedTask } from '../../../lib/store/changes/import.js';
import { renderTask } from '../../../lib/store/disk/task-file.js';
import { cleanRoots } from '../../helpers/root.js';
import { setup } from '../../tools/helpers.js';

const ID = 'TASK-2026-11-20-007';
const STAMP = '2026-11-20T08:00:00.000Z';

function sourceTask(status: Task['status']): Task {
  return {
    schemaVersion: 1,
    id: ID,
    project: 'default',
    title: 'From the source',
    status,
    priority: 'normal',
    routing: {},
    createdAt: STAMP,
    updatedAt: STAMP,
    lastTransitionAt: STAMP,
    createdBy: 'import:test',
    dependsOn: [],
    metadata: { source: { system: 'test', id: '7' } },
  };
}

const create = suite('store.createImportedTask');
create.after.each(cleanRoots);

create('writes the task under its given id and timestamps, as renderTask renders it', async () => {
  const { store } = setup();
  await store.init();
  const task = sourceTask('ready');
  const created = await createImportedTask(store, task, 'Imported body.\n');
  assert.ok(created);
  assert.is(created.path, store.paths.taskFile('ready', ID));
  assert.is(readFileSync(created.path, 'utf8'), renderTask(task, 'Imported body.\n'));
});

create('refuses an id that has a file in another status directory, and writes nothing', async () => {
  const { store } = setup();
  await store.init();
  await createImportedTask(store, sourceTask('backlog'), '');
  const before = readFileSync(store.paths.taskFile('backlog', ID), 'utf8');
  assert.is(await createImportedTask(store, sourceTask('ready'), 'other'), null);
  assert.is(readFileSync(store.paths.taskFile('backlog', ID), 'utf8'), before);
  assert.throws(() => readFileSync(store.paths.taskFile('ready', ID)), /ENOENT/);
});

const update = suite('store.updateImportedTask');
update.after.each(cleanRoots);

update("applies the source's task, body and reachable status with task.imported", async () => {
  const { store, events } = setup();
  await store.init();
  await createImportedTask(store, sourceTask('backlog'), '');
  const { result, unapplied } = await updateImportedTask(store, ID, {
    status: 'ready',
    actor: 'import:test',
    payload: { source: 'test', sourceId: '7', action: 'updated' },
    toTask: (current) => ({ task: { ...current.task, title: 'Renamed at the source' }, body: 'New body.\n' }),
  });
  assert.is(unapplied, undefined);
  assert.is(result.after.status, 'ready');
  assert.is(result.after.task.title, 'Renamed at the source');
  assert.is(result.after.body, 'New body.\n');
  const imported = (await events()).filter((event) => event.type === 'task.imported');
  assert.equal(
    imported.map((event) => [event.taskId, event.actor, event.payload.action]),
    [[ID, 'import:test', 'updated']],
  );
});

update('a status svc moves no task to from where it is stays unapplied, with the reason', async () => {
  const { store } = setup();
  await store.init();
  await createImportedTask(store, sourceTask('backlog'), '');
  renameSync(store.paths.taskFile('backlog', ID), store.paths.taskFile('done', ID));
  const { result, unapplied } = await updateImportedTask(store, ID, {
    status: 'in-progress',
    actor: 'import:test',
    payload: {},
    toTask: (current) => ({ task: current.task, body: current.body }),
  });
  assert.is(result.after.status, 'done');
  assert.ok(
    unapplied?.includes('svc moves no task from done to in-progress, so it stays done (a reopened entry is new work'),
    unapplied,
  );
});

create.run();
update.run();
