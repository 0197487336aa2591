import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createChangeFeed } from '../../../lib/daemon/http/change-feed.js';
import { call, closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const feed = suite('daemon.createChangeFeed');

feed(
  'a wait past the version answers at once; otherwise on the next bump, the timeout, an abort or close',
  async () => {
    const changes = createChangeFeed();
    assert.is(await changes.wait(-1, 60_000), 0);
    const waiting = changes.wait(0, 60_000);
    changes.bump();
    assert.is(await waiting, 1);
    assert.is(await changes.wait(1, 5), 1, 'the timeout');
    const aborted = new AbortController();
    const held = changes.wait(1, 60_000, aborted.signal);
    aborted.abort();
    assert.is(await held, 1);
    const closing = changes.wait(1, 60_000);
    changes.close();
    assert.is(await closing, 1);
    assert.is(await changes.wait(1, 60_000), 1, 'a closed feed holds nobody');
  },
);

feed('a listener hears the ids of each bump at once (null when unknown), until it leaves or the feed closes', () => {
  const changes = createChangeFeed();
  const heard: Array<readonly string[] | null> = [];
  const leave = changes.listen((ids) => void heard.push(ids));
  changes.bump(['TASK-1', 'TASK-2']);
  changes.bump();
  assert.equal(heard, [['TASK-1', 'TASK-2'], null]);
  assert.is(changes.version(), 2);
  leave();
  changes.bump(['TASK-3']);
  changes.listen((ids) => void heard.push(ids));
  changes.close();
  changes.bump(['TASK-4']);
  assert.equal(heard, [['TASK-1', 'TASK-2'], null], 'no call after leaving or closing');
});

const route = suite('daemon GET /v1/tasks/changes');
route.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

route('answers a held long-poll when a tool commits a change, and refuses a bad query', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { schedule: false });
  const first = await call(root, 'GET', '/v1/tasks/changes?after=-1&waitMs=0');
  const { version } = first.body as { version: number };
  const held = call(root, 'GET', `/v1/tasks/changes?after=${version}&waitMs=20000`);
  await call(root, 'POST', '/v1/tool/invoke', { tool: 'test_create', params: { title: 'Moves' } });
  const answered = await held;
  assert.is(answered.status, 200);
  assert.ok((answered.body as { version: number }).version > version);
  assert.is((await call(root, 'GET', '/v1/tasks/changes?after=x')).status, 400);
});

feed.run();
route.run();
