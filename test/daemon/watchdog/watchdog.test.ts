import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createConnection } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkHealthPort, startHealthPort, type HealthPort } from '../../../lib/daemon/health-port.js';
import { isAlive, readPid } from '../../../lib/daemon/instance/pid.js';
import { startWatchdog, type Watchdog } from '../../../lib/daemon/watchdog/watchdog.js';
import { restartDaemon } from '../../../lib/daemon/watchdog/restart.js';
import { DAEMON_NODE_FLAGS } from '../../../lib/daemon/service-file.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { closeDaemons, healthy, runSvc, startChild } from '../../helpers/daemon.js';
import { externalAddresses, freePort, listeningSockets } from '../../helpers/net.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

// Daemons here are real processes of the built bin/svc.js (run `npm run build` first).
const bin = new URL('../../../bin/svc.js', import.meta.url).pathname;

function get(port: number, path: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => void (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function refuses(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

function writeOrg(root: string, daemon: Record<string, unknown>): void {
  mkdirSync(toPaths(root).org, { recursive: true });
  writeFileSync(toPaths(root).orgChart, `schemaVersion: 1\naof:\n  daemon: ${JSON.stringify(daemon)}\n`);
}

const port = suite('daemon.startHealthPort');
const ports: HealthPort[] = [];
port.after.each(async () => {
  await Promise.all(ports.splice(0).map((p) => p.close()));
});

port('serves GET /health alone: 200 when healthy, 503 with the reason when not, 404 for anything else', async () => {
  let problem: string | null = null;
  const health = await startHealthPort({ port: 0, problem: () => problem });
  ports.push(health);
  assert.equal(await get(health.port, '/health'), { status: 200, body: '{"ok":true}' });
  assert.is((await get(health.port, '/health?verbose=1')).status, 200);
  for (const [method, path] of [
    ['GET', '/healthz'],
    ['GET', '/status'],
    ['GET', '/'],
    ['POST', '/health'],
    ['GET', '/v1/tool/invoke'],
    ['GET', '/health/x'],
  ]) {
    const res = await get(health.port, path!, method);
    assert.is(res.status, 404, `${method} ${path}`);
    assert.match(res.body, '"code":"not_found"');
  }
  problem = 'stopping';
  assert.equal(await get(health.port, '/health'), { status: 503, body: '{"ok":false,"reason":"stopping"}' });
  assert.equal(await checkHealthPort(health.port), {
    healthy: false,
    status: 503,
    reason: `http://127.0.0.1:${health.port}/health answered HTTP 503 (stopping)`,
  });
});

port('a port already in use is `unavailable` with a hint', async () => {
  const first = await startHealthPort({ port: 0, problem: () => null });
  ports.push(first);
  try {
    await startHealthPort({ port: first.port, problem: () => null });
    assert.unreachable('the second listener should fail');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'unavailable');
    assert.match((err as Error).message, `The health port 127.0.0.1:${first.port} cannot be opened (EADDRINUSE).`);
  }
});

const daemon = suite('daemon health port');
daemon.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

daemon(
  'with aof.daemon.healthPort the daemon listens on 127.0.0.1:<port> only; without it on no TCP port at all',
  async () => {
    const root = tempRoot();
    const free = await freePort();
    writeOrg(root, { healthPort: free });
    const child = startChild(root);
    const pid = await healthy(root);
    assert.equal(listeningSockets(pid), [`127.0.0.1:${free}`]);
    for (const address of externalAddresses())
      assert.ok(await refuses(address, free), `${address}:${free} must refuse`);
    assert.is((await get(free, '/health')).status, 200);
    assert.is((await get(free, '/healthz')).status, 404);
    const status = await runSvc({ SVC_HOME: root }, 'daemon', 'status', '--port', String(free));
    assert.is(status.code, 0, status.stderr);
    assert.match(status.stdout, `Health port: http://127.0.0.1:${free}/health answers 200 (healthy)\n`);
    const wrong = await runSvc({ SVC_HOME: root }, 'daemon', 'status', '--port', String(await freePort()), '--json');
    assert.is(wrong.code, 1);
    assert.equal(
      (JSON.parse(wrong.stdout) as { healthPort: { healthy: boolean; status: null } }).healthPort.healthy,
      false,
    );
    assert.is((await runSvc({ SVC_HOME: root }, 'daemon', 'status', '--port', 'http')).code, 1);
    child.child.kill('SIGTERM');
    await child.exited;
    assert.equal((await checkHealthPort(free)).status, null, 'closed with the daemon');
    const plain = tempRoot();
    startChild(plain);
    assert.equal(listeningSockets(await healthy(plain)), []);
  },
);

const live = suite('daemon.startWatchdog on a real daemon');
const watchdogs: Watchdog[] = [];
const roots: string[] = [];
live.after.each(async () => {
  await Promise.all(watchdogs.splice(0).map((w) => w.close()));
  for (const root of roots.splice(0)) {
    const pid = readPid(toPaths(root));
    if (pid !== null && isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await closeDaemons();
  cleanRoots();
});

function watch(root: string, healthPort?: number): Watchdog {
  roots.push(root);
  const paths = toPaths(root);
  const watchdog = startWatchdog({
    root,
    pollIntervalMs: 100,
    maxRestarts: 3,
    windowMs: 3_600_000,
    port: healthPort,
    restart: () =>
      restartDaemon({
        paths,
        service: { home: tempRoot(), svcHome: root, node: process.execPath, bin },
        command: {
          node: process.execPath,
          args: [...DAEMON_NODE_FLAGS, bin, 'daemon', 'run'],
          env: { ...process.env, SVC_HOME: root, DEBUG: '' },
        },
      }),
  });
  watchdogs.push(watchdog);
  return watchdog;
}

live('a SIGKILLed daemon is restarted (detached) and healthy again; the reason names the dead pid', async () => {
  const root = tempRoot();
  const child = startChild(root);
  const first = await healthy(root);
  const watchdog = watch(root);
  await within(10_000, () => watchdog.stats().polls >= 2);
  assert.equal(watchdog.stats().history, [], 'no restart while healthy');
  await child.kill();
  const second = await within(
    30_000,
    async () => {
      const pid = await healthy(root, 1000).catch(() => 0);
      return watchdog.stats().history.length > 0 && pid !== first && pid;
    },
    'a new healthy daemon, restarted by the watchdog',
  );
  const [record] = watchdog.stats().history;
  assert.match(record!.reason, `pid ${first}`);
  assert.is(record!.outcome, `restarted (pid ${second}, directly)`);
  assert.ok(isAlive(second));
});

live('over the health port: a SIGKILLed daemon comes back and /health answers 200 again', async () => {
  const root = tempRoot();
  const free = await freePort();
  writeOrg(root, { healthPort: free });
  const child = startChild(root);
  const first = await healthy(root);
  const watchdog = watch(root, free);
  await within(10_000, () => watchdog.stats().polls >= 2);
  await child.kill();
  await within(
    30_000,
    async () =>
      watchdog.stats().history.length > 0 &&
      (await checkHealthPort(free, 1000)).healthy &&
      readPid(toPaths(root)) !== first,
    'the health port of a daemon restarted by the watchdog',
  );
  assert.match(watchdog.stats().history[0]!.reason, `http://127.0.0.1:${free}/health: ECONNREFUSED`);
});

port.run();
daemon.run();
live.run();
