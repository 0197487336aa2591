import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isDaemonOf } from '../../../lib/daemon/instance/identity.js';
import { isAlive } from '../../../lib/daemon/instance/pid.js';
import { isProcessAlive, isZombie } from '../../../lib/fs/process.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { initTree } from '../../../lib/store/commit/store.js';
import { SVC_BIN } from '../../helpers/agents.js';
import { closeDaemons, healthy, runSvc, startChild, type ChildDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

// The daemon is started by a separate `svc daemon start` process, as a user does: once that
// process exits, the daemon's parent is PID 1. Where PID 1 does not reap (many containers, this
// test machine), a SIGKILLed daemon lingers as a zombie that `kill(pid, 0)` still reports alive.
const run = promisify(execFile);
const started: number[] = [];
const others: ChildProcess[] = [];

async function svcStart(root: string): Promise<{ code: number; stdout: string; stderr: string; pid: number }> {
  const env = { ...process.env, SVC_HOME: root, HOME: root, DEBUG: '' };
  const out = await run(process.execPath, [SVC_BIN, 'daemon', 'start'], { env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      stdout: err.stdout,
      stderr: err.stderr,
    }),
  );
  const pid = Number(/svc daemon (?:started|is already running) \(pid (\d+)\)/.exec(out.stdout)?.[1] ?? 0);
  if (pid) started.push(pid);
  return { ...out, pid };
}

/** An unrelated process (what a recycled pid would name). */
function bystander(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  others.push(child);
  return child;
}

/** The exit of a child daemon that should stop on its own (it checks every second); fails after 20 s instead of hanging. */
async function exitOf(child: ChildDaemon): Promise<{ code: number | null }> {
  await within(
    20_000,
    () => child.child.exitCode !== null || child.child.signalCode !== null,
    'the daemon to exit on its own',
  );
  return child.exited;
}

const who = suite('daemon identity');
who.after.each(async () => {
  for (const pid of started.splice(0)) if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const child of others.splice(0)) child.kill('SIGKILL');
  await closeDaemons();
  cleanRoots();
});

who('after a SIGKILL that leaves a zombie, stop says not running and start leaves a new healthy daemon', async () => {
  const root = tempRoot();
  const env = { SVC_HOME: root, HOME: root };
  const first = await svcStart(root);
  assert.is(first.code, 0, first.stderr);
  process.kill(first.pid, 'SIGKILL');
  await within(10_000, () => !isProcessAlive(first.pid), 'the killed daemon to be gone (or a zombie)');
  const stop = await runSvc(env, 'daemon', 'stop');
  assert.is(stop.code, 0, stop.stderr);
  assert.match(stop.stdout, /^svc daemon is not running\./);
  assert.is((await runSvc(env, 'daemon', 'status')).code, 3, 'a zombie is not a running daemon');
  const second = await svcStart(root);
  assert.is(second.code, 0, second.stderr);
  assert.match(second.stdout, /svc daemon started \(pid \d+\)/);
  assert.is.not(second.pid, first.pid);
  assert.is(await healthy(root), second.pid);
});

who(
  'a pid file naming an unrelated live process (a recycled pid) is not signalled, not "running", and start starts',
  async () => {
    const root = tempRoot();
    const env = { SVC_HOME: root, HOME: root };
    const paths = toPaths(root);
    await initTree(paths);
    const other = bystander();
    await within(5000, () => other.pid !== undefined && isAlive(other.pid), 'the bystander');
    writeFileSync(paths.pidFile, `${other.pid}\n`);
    writeFileSync(paths.socket, ''); // a stale file where the socket was
    assert.is(isDaemonOf(other.pid!, root), false);
    const status = await runSvc(env, 'daemon', 'status');
    assert.is(status.code, 3, status.stdout);
    const stop = await runSvc(env, 'daemon', 'stop');
    assert.is(stop.code, 0, stop.stderr);
    assert.match(stop.stdout, `names pid ${other.pid}, which is not an svc daemon of this root: it was not signalled`);
    assert.is(other.exitCode, null);
    assert.is(other.signalCode, null, 'the bystander got no signal');
    const up = await svcStart(root);
    assert.is(up.code, 0, up.stderr);
    assert.match(up.stdout, /svc daemon started/);
    assert.is(await healthy(root), up.pid);
    assert.ok(isAlive(other.pid!), 'the bystander still runs');
  },
);

who('start exits 1 when a daemon of this root runs but does not answer, and starts no second one', async () => {
  const root = tempRoot();
  const env = { SVC_HOME: root, HOME: root };
  const first = await svcStart(root);
  assert.is(first.code, 0, first.stderr);
  process.kill(first.pid, 'SIGSTOP');
  try {
    const again = await svcStart(root);
    assert.is(again.code, 1, again.stdout);
    assert.match(again.stderr, `An svc daemon of ${toPaths(root).root} runs (pid ${first.pid}) but is not healthy`);
    assert.match(again.stderr, /hint: Stop it with `svc daemon stop`/);
    assert.is(readFileSync(toPaths(root).pidFile, 'utf8').trim(), String(first.pid), 'no second daemon');
  } finally {
    process.kill(first.pid, 'SIGCONT');
  }
  const stop = await runSvc(env, 'daemon', 'stop');
  assert.is(stop.stdout, `svc daemon stopped (pid ${first.pid}, SIGTERM).\n`);
});

who('a daemon whose data/ directory is removed notices, exits 1 and leaves the root to a new start', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  const child = startChild(root);
  const pid = await healthy(root);
  rmSync(paths.data, { recursive: true, force: true });
  const { code } = await exitOf(child);
  assert.is(code, 1);
  assert.match(child.output(), `svc daemon (pid ${pid}) stops: ${paths.socket} is gone`);
  assert.not.ok(existsSync(paths.socket), 'it re-created nothing');
  const next = await svcStart(root);
  assert.is(next.code, 0, next.stderr);
  assert.is(await healthy(root), next.pid);
});

who('a daemon whose socket file is replaced stops without removing the new file', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  const child = startChild(root);
  await healthy(root);
  rmSync(paths.socket);
  writeFileSync(paths.socket, 'not a socket');
  const { code } = await exitOf(child);
  assert.is(code, 1);
  assert.is(readFileSync(paths.socket, 'utf8'), 'not a socket');
  assert.not.ok(existsSync(paths.pidFile), 'its own pid file is removed');
});

const proc = suite('fs.isProcessAlive');
proc.after.each(() => {
  for (const child of others.splice(0)) child.kill('SIGKILL');
});

proc('a running process is alive; an exited one that nobody reaped is a zombie, not alive', async () => {
  const child = bystander();
  await within(5000, () => child.pid !== undefined && isProcessAlive(child.pid), 'the child');
  assert.not.ok(isZombie(child.pid!));
  // Stop node from reaping it: a plain waitpid-less exit is what PID 1 leaves behind.
  const orphan = await run(process.execPath, [
    '-e',
    `const c = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 200)'], { detached: true, stdio: 'ignore' }); c.unref(); console.log(c.pid)`,
  ]);
  const pid = Number(orphan.stdout.trim());
  await within(10_000, () => !isProcessAlive(pid), 'the orphan to exit');
  let signal0 = true;
  try {
    process.kill(pid, 0);
  } catch {
    signal0 = false;
  }
  assert.is(isZombie(pid), signal0, 'kill(pid, 0) answers only for a zombie');
});

who.run();
proc.run();
