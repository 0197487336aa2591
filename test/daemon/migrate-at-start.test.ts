import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../lib/store/disk/paths.js';
import { call, closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot } from '../helpers/root.js';

const start = suite('daemon.migrateAtStart');
start.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

start('runs the pending migrations before indexing, logs each file, and leaves a newer file alone', async () => {
  const root = tempRoot();
  mkdirSync(join(root, 'tasks/ready'), { recursive: true });
  writeFileSync(join(root, 'tasks/ready/hand-1.md'), '---\ntitle: By hand\n---\n\nbody\n');
  const newer = '---\nschemaVersion: 2\nid: future-1\ntitle: Future\n---\n';
  writeFileSync(join(root, 'tasks/ready/future-1.md'), newer);
  await startTestDaemon(root);
  const log = toPaths(root).daemonLog;
  await logShows(
    log,
    /info migrate\.applied \{"file":"tasks\/ready\/hand-1\.md","from":0,"to":1,"changes":\["schemaVersion: 1"/,
  );
  await logShows(log, /warn migrate\.newer \{"file":"tasks\/ready\/future-1\.md","version":2/);
  await logShows(log, /info migrate\.done \{"files":1,"backup":"data\/backups\//);
  const tasks = (await call(root, 'GET', '/v1/tasks')).body as { id: string }[] | { tasks: { id: string }[] };
  const ids = (Array.isArray(tasks) ? tasks : tasks.tasks).map((task) => task.id);
  assert.ok(ids.includes('hand-1'), JSON.stringify(tasks));
  assert.is(readFileSync(join(root, 'tasks/ready/future-1.md'), 'utf8'), newer);
});

start('a tree with nothing to migrate logs nothing about migrations', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  const log = toPaths(root).daemonLog;
  await logShows(log, /daemon\.started/);
  assert.not.match(readFileSync(log, 'utf8'), /migrate\./);
});

start.run();
