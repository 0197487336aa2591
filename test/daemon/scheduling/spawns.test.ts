import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createSpawnQueue, type Spawn } from '../../../lib/daemon/scheduling/spawn-queue.js';
import { call, closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

type Err = { ok: false; error: { code: string; message: string } };

function spawnOf(n: number): Spawn {
  return {
    id: `spawn-${n}`,
    taskId: `TASK-2026-11-21-00${n}`,
    agent: 'dev',
    sessionId: `session-${n}`,
    prompt: `Work on task ${n}`,
    task: { title: `Task ${n}`, priority: 'normal', routing: { agent: 'dev' }, body: 'Brief' },
  };
}

const wait = (root: string, plugin = 'gw') =>
  call(root, 'GET', '/v1/spawns/wait', undefined, { headers: { 'x-svc-plugin': plugin } });

const routes = suite('daemon.spawns');
routes.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

routes('GET /v1/spawns/wait holds an idle long-poll for the configured time, then answers 204', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { spawnWaitMs: 200 });
  const started = Date.now();
  const res = await wait(root);
  const held = Date.now() - started;
  assert.is(res.status, 204);
  assert.is(res.body, null);
  assert.ok(held >= 190 && held < 2000, `held ${held} ms`);
});

routes('a long-poll without x-svc-plugin is a validation error', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  const res = await call(root, 'GET', '/v1/spawns/wait');
  assert.is(res.status, 400);
  assert.match((res.body as Err).error.message, /x-svc-plugin/);
});

routes('a queued spawn is handed to a waiting plugin and its result resolves the enqueue promise', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root, { spawnWaitMs: 5000 });
  const polling = wait(root);
  await within(2000, () => daemon.spawns.attached().length === 1, 'the plugin attached');
  const result = daemon.spawns.enqueue(spawnOf(1));
  const handed = await polling;
  assert.is(handed.status, 200);
  assert.equal(handed.body, spawnOf(1));
  const posted = await call(root, 'POST', '/v1/spawns/spawn-1/result', {
    ok: true,
    sessionKey: 'agent:dev:svc-TASK-2026-11-21-001',
  });
  assert.is(posted.status, 200);
  assert.equal(posted.body, { ok: true });
  assert.equal(await result, { ok: true, sessionKey: 'agent:dev:svc-TASK-2026-11-21-001' });
});

routes('a result is idempotent; an unknown spawn is 404 and a malformed result 400', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root);
  const result = daemon.spawns.enqueue(spawnOf(2));
  assert.is((await wait(root)).status, 200);
  assert.is(
    (
      await call(root, 'POST', '/v1/spawns/spawn-2/result', {
        ok: false,
        error: 'no such agent',
        reason: 'agent_unavailable',
      })
    ).status,
    200,
  );
  const again = await call(root, 'POST', '/v1/spawns/spawn-2/result', { ok: true });
  assert.is(again.status, 200);
  assert.equal(await result, { ok: false, error: 'no such agent', reason: 'agent_unavailable' });
  const unknown = await call(root, 'POST', '/v1/spawns/spawn-99/result', { ok: true });
  assert.is(unknown.status, 404);
  assert.is((unknown.body as Err).error.code, 'not_found');
  const malformed = await call(root, 'POST', '/v1/spawns/spawn-2/result', { ok: 'yes' });
  assert.is(malformed.status, 400);
  assert.match((malformed.body as Err).error.message, /ok:/);
});

routes('a plugin shows in /status while it polls and for the grace after', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { spawnWaitMs: 400, pluginGraceMs: 300 });
  const plugins = async () =>
    ((await call(root, 'GET', '/status')).body as { plugins: { id: string; since: string }[] }).plugins;
  assert.equal(await plugins(), []);
  const polling = wait(root, 'openclaw-main');
  const seen = await within(2000, async () => (await plugins()).length === 1 && (await plugins()));
  assert.is(seen[0]!.id, 'openclaw-main');
  assert.ok(Date.parse(seen[0]!.since) <= Date.now());
  assert.is((await polling).status, 204);
  assert.is((await plugins()).length, 1, 'still attached within the grace');
  await within(3000, async () => (await plugins()).length === 0, 'the plugin detached after the grace');
});

const queue = suite('daemon.createSpawnQueue');

queue('a spawn nobody takes fails with spawn_timeout', async () => {
  const q = createSpawnQueue({ pickupTimeoutMs: 50 });
  const result = await q.enqueue(spawnOf(3));
  assert.is(result.ok, false);
  assert.is(result.reason, 'spawn_timeout');
  assert.match(result.error!, /spawn-3 \(task TASK-2026-11-21-003\) within 50 ms/);
  assert.is(q.size(), 0);
});

queue('onTaken names the plugin; close releases long-polls and fails open spawns with daemon_stopped', async () => {
  const q = createSpawnQueue({ pickupTimeoutMs: 5000 });
  const taken: string[] = [];
  const first = q.enqueue(spawnOf(4), { onTaken: (plugin) => taken.push(plugin) });
  assert.equal(await q.take('gw', 1000), spawnOf(4));
  assert.equal(taken, ['gw']);
  const idle = q.take('gw', 5000);
  const queued = q.enqueue(spawnOf(5));
  assert.equal(await idle, spawnOf(5));
  const polling = q.take('gw', 5000);
  q.close();
  assert.is(await polling, null);
  assert.equal([(await first).reason, (await queued).reason], ['daemon_stopped', 'daemon_stopped']);
});

queue('an aborted long-poll returns null and a requeued spawn goes to the next one', async () => {
  const q = createSpawnQueue({ pickupTimeoutMs: 5000 });
  const abort = new AbortController();
  const polling = q.take('gw', 5000, abort.signal);
  abort.abort();
  assert.is(await polling, null);
  const result = q.enqueue(spawnOf(6));
  const spawn = await q.take('gw', 1000);
  q.requeue(spawn!);
  assert.equal(await q.take('other', 1000), spawnOf(6));
  assert.is(q.settle('spawn-6', { ok: true }), 'settled');
  assert.is(q.settle('spawn-6', { ok: false }), 'already');
  assert.is(q.settle('spawn-7', { ok: true }), 'unknown');
  assert.equal(await result, { ok: true });
  q.close();
});

queue('a hook that throws is reported and the spawn is still handed out (a plugin was already waiting)', async () => {
  const failures: string[] = [];
  const q = createSpawnQueue({
    pickupTimeoutMs: 5000,
    onHookError: (err, id) => failures.push(`${id}: ${(err as Error).message}`),
  });
  const polling = q.take('gw', 5000);
  void q.enqueue(spawnOf(8), {
    onTaken: () => {
      throw new Error('hook broke');
    },
  });
  assert.equal(await polling, spawnOf(8));
  assert.equal(failures, ['spawn-8: hook broke']);
  q.close();
});

queue(
  'onAttach tells of a plugin attaching: its first long-poll, and one after its grace passed, not one within it',
  async () => {
    let now = Date.parse('2026-11-21T10:00:00Z');
    const q = createSpawnQueue({ clock: () => new Date(now), graceMs: 5000 });
    const attached: string[] = [];
    const off = q.onAttach((id) => attached.push(id));
    const poll = () => {
      const abort = new AbortController();
      const taken = q.take('gw', 60_000, abort.signal);
      return () => {
        abort.abort();
        return taken;
      };
    };
    const end = poll();
    assert.equal(attached, ['gw']);
    const second = poll();
    await end();
    await second();
    now += 4000;
    await poll()();
    assert.equal(attached, ['gw'], 'back within the grace: still attached, no news');
    now += 6000;
    const back = poll();
    assert.equal(attached, ['gw', 'gw'], 'back after the grace: attached again');
    off();
    await back();
    now += 6000;
    await poll()();
    assert.equal(attached, ['gw', 'gw'], 'no call after unsubscribing');
    q.close();
  },
);

routes.run();
queue.run();
