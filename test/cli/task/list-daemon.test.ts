import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../../lib/store/commit/store.js';
import { svc } from '../../helpers/cli.js';
import { call, closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const list = suite('cli.task list with a daemon');
list.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

list('is served from the daemon index and agrees with a listing of the files', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  for (const title of ['One', 'Two', 'Three'])
    await store.create({ title, createdBy: 'test', routing: { agent: 'dev' } });
  await store.create({ title: 'Ready one', status: 'ready', createdBy: 'test' });
  const fromFiles = JSON.parse((await svc(root, 'task', 'list', '--json')).stdout);
  await startTestDaemon(root, { schedule: false });
  const extra = await store.create({ title: 'Written by another process', createdBy: 'test' });
  const { body } = await call(root, 'GET', '/v1/tasks?status=backlog');
  assert.equal(
    (body as { tasks: { id: string }[] }).tasks
      .map((t) => t.id)
      .sort()
      .at(-1),
    extra.task.id,
    'the route sees a write made after it started',
  );
  const fromDaemon = JSON.parse((await svc(root, 'task', 'list', '--json')).stdout);
  assert.equal(fromDaemon.slice(0, 4), fromFiles);
  assert.is(fromDaemon.length, 5);
  const ready = JSON.parse((await svc(root, 'task', 'list', '--status', 'ready', '--json')).stdout);
  assert.equal(
    ready.map((t: { title: string }) => t.title),
    ['Ready one'],
  );
  const bad = await call(root, 'GET', '/v1/tasks?status=doing');
  assert.is(bad.status, 400);
});

list.run();
