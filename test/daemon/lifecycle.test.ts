import { existsSync, readFileSync, statSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../lib/store/disk/paths.js';
import { startDaemon } from '../../lib/daemon/daemon.js';
import { call, closeDaemons, healthy, startChild, TEST_TOOLS, writeTaskFiles } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';

// Real `svc daemon run` processes from the built bin/svc.js (run `npm run build` first).
type Ok<T> = { ok: true; result: T };
type StatusResult = { total: number; byStatus: Record<string, number>; tasks: { id: string; status: string }[] };

const life = suite('daemon.lifecycle');
life.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

life('after SIGKILL the stale socket and pid stay; a new start removes them and serves the same tasks', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  const ids = await writeTaskFiles(root, 5, (i) => (i % 2 ? 'ready' : 'done'));
  const first = startChild(root);
  const pid = await healthy(root);
  assert.is(pid, first.child.pid);
  const before = (
    (await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_status', params: { limit: 10 } }))
      .body as Ok<StatusResult>
  ).result;
  assert.is(before.total, 5);
  await first.kill();
  assert.ok(existsSync(paths.socket), 'a killed daemon leaves its socket');
  assert.is(readFileSync(paths.pidFile, 'utf8').trim(), String(pid));
  assert.is((await call(root, 'GET', '/healthz').catch((err: { code: string }) => err)).code as unknown, 'unavailable');
  const second = startChild(root);
  const next = await healthy(root);
  assert.is(next, second.child.pid);
  assert.is(readFileSync(paths.pidFile, 'utf8').trim(), String(next));
  assert.is(statSync(paths.socket).mode & 0o777, 0o600);
  const after = (
    (await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_status', params: { limit: 10 } }))
      .body as Ok<StatusResult>
  ).result;
  assert.equal(after, before);
  assert.equal(after.byStatus, {
    backlog: 0,
    ready: 3,
    'in-progress': 0,
    blocked: 0,
    done: 2,
    deadletter: 0,
    cancelled: 0,
  });
  assert.equal(
    after.tasks.map((t) => t.id).sort(),
    ids.filter((_, i) => i % 2 === 0),
  );
  await logShows(paths.daemonLog, /daemon\.leftovers_removed .*daemon\.sock/);
});

life('a second start while one runs fails with exit 1, naming the running pid', async () => {
  const root = tempRoot();
  const first = startChild(root);
  const pid = await healthy(root);
  const second = startChild(root);
  const { code } = await second.exited;
  assert.is(code, 1);
  assert.match(second.output(), `already running for ${toPaths(root).root} (pid ${pid})`);
  assert.match(second.output(), /hint: .*svc daemon stop/);
  assert.is((await call(root, 'GET', '/healthz')).status, 200);
  assert.is(first.child.exitCode, null);
});

life('SIGTERM stops it gracefully: exit 0, pid and socket removed, daemon.stopped logged', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  const child = startChild(root);
  await healthy(root);
  child.child.kill('SIGTERM');
  const { code, signal } = await child.exited;
  assert.equal([code, signal], [0, null]);
  assert.not.ok(existsSync(paths.socket));
  assert.not.ok(existsSync(paths.pidFile));
  const log = readFileSync(paths.daemonLog, 'utf8');
  assert.match(log, /info daemon\.started/);
  assert.match(log, /info daemon\.stopping/);
  assert.match(log, /info daemon\.stopped/);
});

life('the pid file appears only once /healthz answers', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  await writeTaskFiles(root, 1000, () => 'ready');
  startChild(root);
  const order = await within(
    20_000,
    async () => {
      if (!existsSync(paths.pidFile)) return null;
      return (await call(root, 'GET', '/healthz')).status;
    },
    'the pid file',
  );
  assert.is(order, 200);
});

life('SIGTERM during the start is not fatal: the daemon comes up, then stops cleanly', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  await writeTaskFiles(root, 3000, () => 'ready');
  const child = startChild(root);
  await within(10_000, () => existsSync(`${paths.pidFile}.lock`), 'the start to take its lock');
  assert.not.ok(existsSync(paths.pidFile), 'still starting');
  child.child.kill('SIGTERM');
  const { code, signal } = await child.exited;
  assert.equal([code, signal], [0, null]);
  assert.not.ok(existsSync(paths.socket));
  assert.not.ok(existsSync(paths.pidFile));
  assert.match(readFileSync(paths.daemonLog, 'utf8'), /info daemon\.stopped/);
});

life('a start while another is still starting (no pid file yet) names the pid from the lock', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  await writeTaskFiles(root, 3000, () => 'ready');
  const first = startChild(root);
  await within(10_000, () => existsSync(`${paths.pidFile}.lock`), 'the first start to take its lock');
  assert.not.ok(existsSync(paths.pidFile), 'still starting');
  try {
    await startDaemon({ root, tools: TEST_TOOLS });
    assert.unreachable('the second start should fail');
  } catch (err) {
    assert.is((err as { code: string }).code, 'locked');
    assert.match((err as Error).message, `(pid ${first.child.pid})`);
  }
  assert.is(await healthy(root), first.child.pid);
});

life.run();
