import { renameSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { healMovedTask } from '../../../lib/store/changes/heal.js';
import { cleanRoots } from '../../helpers/root.js';
import { setup } from '../../tools/helpers.js';

const heal = suite('store.healMovedTask');
heal.after.each(cleanRoots);

heal('a file moved by hand gets the status of its directory, by actor filesystem', async () => {
  const { store, events } = setup();
  const created = await store.create({ title: 'Moved', createdBy: 'test' });
  const id = created.task.id;
  renameSync(store.paths.taskFile('backlog', id), store.paths.taskFile('ready', id));
  const result = await healMovedTask(store, id);
  assert.is(result.changed, true);
  assert.is(result.after.status, 'ready');
  assert.is((await store.get(id)).task.status, 'ready');
  const moved = (await events()).filter((event) => event.type === 'task.transitioned' && event.taskId === id);
  assert.equal(
    moved.map((event) => [event.actor, event.payload.from, event.payload.to]),
    [['filesystem', 'backlog', 'ready']],
  );
});

heal('a task whose frontmatter matches its directory is left as it is', async () => {
  const { store } = setup();
  const created = await store.create({ title: 'In place', createdBy: 'test' });
  const result = await healMovedTask(store, created.task.id);
  assert.is(result.changed, false);
  assert.equal(result.after.stamp, created.stamp);
});

heal.run();
