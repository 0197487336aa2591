import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isAlive } from '../../../lib/daemon/instance/pid.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { initTree } from '../../../lib/store/commit/store.js';
import { renderTask } from '../../../lib/store/disk/task-file.js';
import { call, closeDaemons, healthy, runSvc, startChild, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

// `svc daemon start` and `stop` run the built bin/svc.js (run `npm run build` first).
const pkgVersion = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const status = suite('cli.daemon status');
status.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

status('prints "Status: not running" and exits 3 when no daemon runs', async () => {
  const root = tempRoot();
  const res = await runSvc({ SVC_HOME: root }, 'daemon', 'status');
  assert.is(res.code, 3);
  assert.is(res.stdout, 'Status: not running\n');
  assert.match(res.stderr, /svc daemon start/);
  const json = await runSvc({ SVC_HOME: root }, 'daemon', 'status', '--json');
  assert.is(json.code, 3);
  assert.equal(JSON.parse(json.stdout), { status: 'not running', healthy: false });
});

status('prints health, version, pid, uptime, mode, tasks and one line per attached plugin', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { spawnWaitMs: 3000 });
  const polling = call(root, 'GET', '/v1/spawns/wait', undefined, { headers: { 'x-svc-plugin': 'gw-1' } });
  const res = await within(3000, async () => {
    const out = await runSvc({ SVC_HOME: root }, 'daemon', 'status');
    return out.stdout.includes('Plugin: gw-1') && out.stdout.includes('Mode: plugin') && out;
  });
  assert.is(res.code, 0);
  const lines = res.stdout.trimEnd().split('\n');
  assert.is(lines[0], 'Status: running (healthy)');
  assert.is(lines[1], `Version: ${pkgVersion}`);
  assert.is(lines[2], `PID: ${process.pid}`);
  assert.match(lines[3]!, /^Uptime: \d+s$/);
  assert.is(lines[4], 'Mode: plugin');
  assert.is(lines[5], 'Tasks: backlog 0, ready 0, in-progress 0, blocked 0, done 0, deadletter 0, cancelled 0');
  assert.match(lines[6]!, /^Plugin: gw-1 \(attached since \d{4}-\d\d-\d\dT/);
  assert.is(lines[7], `Leases: 0 by this daemon (${hostname()} pid ${process.pid})`);
  assert.is(lines[8], 'Config: no org chart (org/org-chart.yaml absent: only routing.agent routes, no local agents)');
  assert.is(lines[9], 'Web board: not open (`svc web` opens it)');
  assert.is(lines[10], `Socket: ${toPaths(root).socket}`);
  const json = JSON.parse((await runSvc({ SVC_HOME: root }, 'daemon', 'status', '--json')).stdout) as Record<
    string,
    unknown
  >;
  assert.equal(
    [json.status, json.healthy, json.version, json.pid, json.mode],
    ['running', true, pkgVersion, process.pid, 'plugin'],
    'a plugin attached in the boot window: plugin-expected',
  );
  await polling;
});

status('names the other daemons sharing the tree by the host and pid in their leases', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  await initTree(paths);
  const leased = (n: number, host?: string, pid?: number) => {
    const id = `TASK-2026-01-01-00${n}`;
    const stamp = '2026-01-01T00:00:00.000Z';
    const lease = {
      agent: 'dev',
      expiresAt: '2099-01-01T00:00:00.000Z',
      sessionId: `s${n}`,
      ...(host ? { host, pid } : {}),
    };
    writeFileSync(
      paths.taskFile('in-progress', id),
      renderTask(
        {
          schemaVersion: 1,
          id,
          project: 'p',
          title: `Run ${n}`,
          status: 'in-progress',
          priority: 'normal',
          routing: { agent: 'dev' },
          createdAt: stamp,
          updatedAt: stamp,
          lastTransitionAt: stamp,
          createdBy: 'test',
          dependsOn: [],
          metadata: {},
          lease,
        },
        'x\n',
      ),
    );
  };
  leased(1, 'host-b.example', 4242);
  leased(2, 'host-b.example', 4242);
  leased(3, 'host-c.example', 77);
  leased(4, hostname(), process.pid);
  leased(5);
  await startTestDaemon(root, { schedule: false });
  const res = await runSvc({ SVC_HOME: root }, 'daemon', 'status');
  const lines = res.stdout.split('\n');
  const at = lines.findIndex((line) => line.startsWith('Leases: '));
  assert.equal(lines.slice(at, at + 3), [
    `Leases: 1 by this daemon (${hostname()} pid ${process.pid}), 3 by 2 other daemons, 1 claimed by hand`,
    'Other daemon: host-b.example pid 4242 (2 in progress)',
    'Other daemon: host-c.example pid 77 (1 in progress)',
  ]);
  const json = JSON.parse((await runSvc({ SVC_HOME: root }, 'daemon', 'status', '--json')).stdout) as {
    leases: unknown;
  };
  assert.equal(json.leases, {
    host: hostname(),
    pid: process.pid,
    thisDaemon: 1,
    unowned: 1,
    others: [
      { host: 'host-b.example', pid: 4242, inProgress: 2 },
      { host: 'host-c.example', pid: 77, inProgress: 1 },
    ],
  });
  const board = await runSvc({ SVC_HOME: root, COLUMNS: '200' }, 'board');
  assert.match(board.stdout, 'via host-b.example pid 4242');
});

const control = suite('cli.daemon start/stop');
const detached: number[] = [];
control.after.each(async () => {
  for (const pid of detached.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await closeDaemons();
  cleanRoots();
});

control('start runs the daemon detached and waits until healthy; stop ends it and status says so', async () => {
  const root = tempRoot();
  const env = { SVC_HOME: root, HOME: tempRoot() };
  const started = await runSvc(env, 'daemon', 'start');
  assert.is(started.code, 0, started.stderr);
  const pid = Number(/^svc daemon started \(pid (\d+)\)$/m.exec(started.stdout)?.[1]);
  detached.push(pid);
  assert.ok(isAlive(pid));
  assert.match(started.stdout, `Log: ${toPaths(root).daemonLog}`);
  assert.is(await healthy(root), pid);
  const again = await runSvc(env, 'daemon', 'start');
  assert.match(again.stdout, `svc daemon is already running (pid ${pid})`);
  const stopped = await runSvc(env, 'daemon', 'stop');
  assert.is(stopped.code, 0, stopped.stderr);
  assert.is(stopped.stdout, `svc daemon stopped (pid ${pid}, SIGTERM).\n`);
  assert.not.ok(isAlive(pid));
  assert.not.ok(existsSync(toPaths(root).socket));
  assert.is((await runSvc(env, 'daemon', 'status')).code, 3);
  assert.is((await runSvc(env, 'daemon', 'stop')).stdout, 'svc daemon is not running.\n');
});

control('start says at once when the org chart does not load, with its first problems', async () => {
  const root = tempRoot();
  const env = { SVC_HOME: root, HOME: tempRoot() };
  mkdirSync(join(root, 'org'), { recursive: true });
  writeFileSync(join(root, 'org', 'org-chart.yaml'), 'schemaVersion: 1\nagents:\n  - { name: Dev }\n');
  const started = await runSvc(env, 'daemon', 'start');
  assert.is(started.code, 0, started.stderr);
  detached.push(Number(/^svc daemon started \(pid (\d+)\)$/m.exec(started.stdout)?.[1]));
  assert.match(
    started.stdout,
    /\nConfig: org\/org-chart\.yaml INVALID since \S+ \(1 problem; no chart loaded: ready tasks are held\):\n  agents\[0\]\.id: required/,
  );
  assert.match(started.stderr, /hint: fix org\/org-chart\.yaml/);
  assert.is((await runSvc(env, 'daemon', 'stop')).code, 0);
});

control('stop --force sends SIGTERM to the pid directly', async () => {
  const root = tempRoot();
  const child = startChild(root);
  const pid = await healthy(root);
  const res = await runSvc({ SVC_HOME: root, HOME: tempRoot() }, 'daemon', 'stop', '--force');
  assert.is(res.stdout, `svc daemon stopped (pid ${pid}, SIGTERM).\n`);
  assert.equal(await child.exited, { code: 0, signal: null });
});

control(
  'install writes the unit into HOME, says it is not loaded and suggests start; uninstall removes it',
  async () => {
    const root = tempRoot();
    const home = tempRoot();
    const env = { SVC_HOME: root, HOME: home };
    const unit = join(home, '.config/systemd/user/svc.service');
    const first = await runSvc(env, 'daemon', 'install');
    assert.is(first.code, 0, first.stderr);
    assert.match(first.stdout, `Wrote ${unit}\n`);
    assert.match(first.stdout, /Not loaded: .*not the home of this user/);
    assert.match(first.stdout, /svc daemon start/);
    assert.match(readFileSync(unit, 'utf8'), `Environment="SVC_HOME=${root}"`);
    assert.match((await runSvc(env, 'daemon', 'install')).stdout, `Unchanged: ${unit}\n`);
    assert.is((await runSvc(env, 'daemon', 'uninstall')).stdout, `Removed ${unit}\n`);
    assert.is((await runSvc(env, 'daemon', 'uninstall')).stdout, `Not installed (no ${unit}).\n`);
  },
);

status.run();
control.run();
