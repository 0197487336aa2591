import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkHealthPort } from '../../../lib/daemon/health-port.js';
import { isAlive, readPid } from '../../../lib/daemon/instance/pid.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { closeDaemons, healthy, runSvc, startChild, type ChildDaemon } from '../../helpers/daemon.js';
import { freePort } from '../../helpers/net.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

// `svc daemon watchdog` as its own process (the built bin/svc.js), watching real daemon processes.
const test = suite('cli.daemon watchdog');
const roots: string[] = [];
test.after.each(async () => {
  await closeDaemons();
  for (const root of roots.splice(0)) {
    const pid = readPid(toPaths(root));
    if (pid !== null && isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  cleanRoots();
});

function setUp(daemon: Record<string, unknown>): { root: string; env: Record<string, string> } {
  const root = tempRoot();
  roots.push(root);
  mkdirSync(toPaths(root).org, { recursive: true });
  writeFileSync(toPaths(root).orgChart, `schemaVersion: 1\naof:\n  daemon: ${JSON.stringify(daemon)}\n`);
  return { root, env: { SVC_HOME: root, HOME: tempRoot() } };
}

async function killDaemon(root: string): Promise<number> {
  const pid = await healthy(root);
  process.kill(pid, 'SIGKILL');
  return pid;
}

test('restarts a SIGKILLed daemon; killed again past maxRestarts it prints the critical report and exits 1', async () => {
  const port = await freePort();
  const { root, env } = setUp({
    healthPort: port,
    watchdog: { pollIntervalMs: 150, restartPolicy: { maxRestarts: 1, windowMs: 3_600_000 } },
  });
  assert.is((await runSvc(env, 'daemon', 'start')).code, 0);
  const watchdog: ChildDaemon = startChild(root, ['daemon', 'watchdog', '--port', String(port)]);
  await within(
    15_000,
    () => watchdog.output().includes(`checks http://127.0.0.1:${port}/health every 150 ms`),
    'the watchdog banner',
  );
  await within(
    15_000,
    () => readFileSync(toPaths(root).watchdogLog, 'utf8').includes('watchdog.healthy {"after":"start"'),
    'the watchdog to see the daemon healthy',
  );
  const first = await killDaemon(root);
  await within(
    30_000,
    async () => watchdog.output().includes('restarted (pid') && (await checkHealthPort(port, 1000)).healthy,
    'the daemon restarted by the watchdog',
  );
  const second = await killDaemon(root);
  assert.is.not(second, first);
  const { code } = await within(30_000, () => watchdog.exited, 'the watchdog to give up');
  assert.is(code, 1);
  const out = watchdog.output();
  assert.match(
    out,
    `[AOF] Watchdog: the svc daemon is unhealthy (http://127.0.0.1:${port}/health: ECONNREFUSED); restarting it (1 of 1 within 1h).`,
  );
  assert.match(out, '[AOF] WATCHDOG CRITICAL:');
  assert.match(
    out,
    /Restart history:\n {2}\S+Z {2}http:\/\/127\.0\.0\.1:\d+\/health: ECONNREFUSED -> restarted \(pid \d+, directly\)\n {2}\S+Z {2}.* -> not restarted: limit reached\n/,
  );
  assert.match(out, /Current health:\n {2}Status: down \(/);
  assert.match(out, 'Tasks: open 0, ready 0, in progress 0, blocked 0, done 0');
  assert.match(out, 'Action required:');
  assert.is(readPid(toPaths(root)), second, 'not restarted after the limit');
  assert.not.ok(isAlive(second));
  assert.match(readFileSync(toPaths(root).watchdogLog, 'utf8'), 'WATCHDOG CRITICAL');
});

test('stops on SIGTERM (exit 0); leaves a daemon stopped with `svc daemon stop` alone', async () => {
  const { root, env } = setUp({ watchdog: { pollIntervalMs: 100 } });
  assert.is((await runSvc(env, 'daemon', 'start')).code, 0);
  const watchdog = startChild(root, ['daemon', 'watchdog']);
  await within(
    15_000,
    () => readFileSync(toPaths(root).watchdogLog, 'utf8').includes('watchdog.healthy {"after":"start"'),
    'the watchdog to see the daemon healthy',
  );
  assert.is((await runSvc(env, 'daemon', 'stop')).code, 0);
  await within(
    15_000,
    () => readFileSync(toPaths(root).watchdogLog, 'utf8').includes('watchdog.daemon_stopped'),
    'the watchdog to see the stop',
  );
  const log = () => readFileSync(toPaths(root).watchdogLog, 'utf8');
  assert.not.match(log(), 'restarting');
  assert.is((await runSvc(env, 'daemon', 'status')).code, 3);
  watchdog.child.kill('SIGTERM');
  assert.equal(await watchdog.exited, { code: 0, signal: null });
  assert.match(log(), 'watchdog.stopped {"gaveUp":false}');
});

test('a --port that is not a port is a validation error', async () => {
  const { env } = setUp({});
  const res = await runSvc(env, 'daemon', 'watchdog', '--port', '70000');
  assert.is(res.code, 1);
  assert.match(res.stderr, '--port must be a port number from 1 to 65535 (found 70000).');
});

test.run();
