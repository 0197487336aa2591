import { existsSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openCheckLog } from '../../../lib/engine/checks/log.js';
import { CHECK_MARKER, runCheckProcess } from '../../../lib/engine/checks/process.js';
import { isProcessAlive } from '../../../lib/fs/process.js';
import { findMarkedProcesses } from '../../../lib/fs/process-marker.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

// A check's processes end with it, whatever they do: those that leave its process group with
// `setsid` (keeping its output open or not) carry its marker and are found by it.
const header = {
  taskId: 'TASK-2026-11-21-001',
  check: 'test',
  session: 's1',
  startedAt: new Date('2026-11-21T10:00:00.000Z'),
};
const started: number[] = [];

/** Runs `sh -c script` as a check in a fresh root; `$ROOT` in the script is that root. */
function runScript(script: string, timeoutMs: number) {
  const root = tempRoot();
  const log = openCheckLog(toPaths(root), header);
  const marker = `test.${Math.random().toString(36).slice(2)}`;
  const check = runCheckProcess({
    argv: ['sh', '-c', script],
    cwd: root,
    env: { ...process.env, ROOT: root },
    timeoutMs,
    log,
    marker,
    killGraceMs: 500,
  });
  return { root, log, marker, check, startedAt: Date.now() };
}

/** The pid the grandchild wrote to `<root>/grandchild.pid`. */
async function grandchildOf(root: string): Promise<number> {
  const pid = await within(
    5000,
    () => existsSync(`${root}/grandchild.pid`) && Number(readFileSync(`${root}/grandchild.pid`, 'utf8').trim()),
    'the grandchild',
  );
  started.push(pid);
  return pid;
}

const checks = suite('engine.runCheckProcess');
checks.after.each(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  cleanRoots();
});

checks(
  'a check whose setsid grandchild holds its output open ends within its timeout plus a second and leaves no process behind',
  async () => {
    const run = runScript(`setsid sh -c 'echo $$ > "$ROOT/grandchild.pid"; exec sleep 40' & sleep 40`, 1500);
    const grandchild = await grandchildOf(run.root);
    const exit = await run.check.ended;
    const took = Date.now() - run.startedAt;
    run.log.close('timed out', new Date());
    assert.ok(took < 2500, `ended after ${took} ms`);
    assert.is(exit.timedOut, true);
    assert.is(findMarkedProcesses(CHECK_MARKER, run.marker).length, 0, 'no process carries the marker');
    await within(2000, () => !isProcessAlive(grandchild), 'the grandchild to be gone');
  },
);

checks(
  'a passing check whose setsid child lingers with its output open ends at once, and that child is ended',
  async () => {
    const run = runScript(
      `setsid sh -c 'echo $$ > "$ROOT/grandchild.pid"; exec sleep 40' & while [ ! -s "$ROOT/grandchild.pid" ]; do sleep 0.05; done; echo passed; exit 0`,
      15_000,
    );
    const exit = await run.check.ended;
    const took = Date.now() - run.startedAt;
    const grandchild = await grandchildOf(run.root);
    run.log.close('exit code 0', new Date());
    assert.equal([exit.exitCode, exit.timedOut], [0, false]);
    assert.ok(took < 3000, `ended after ${took} ms`);
    assert.match(run.log.tail(), /passed/);
    assert.is(findMarkedProcesses(CHECK_MARKER, run.marker).length, 0, 'no process carries the marker');
    await within(2000, () => !isProcessAlive(grandchild), 'the lingering child to be gone');
  },
);

checks('a passing check whose setsid child closed its output and lingers has that child ended', async () => {
  const run = runScript(
    `setsid sh -c 'echo $$ > "$ROOT/grandchild.pid"; exec sleep 40' </dev/null >/dev/null 2>&1 & while [ ! -s "$ROOT/grandchild.pid" ]; do sleep 0.05; done; exit 0`,
    15_000,
  );
  const exit = await run.check.ended;
  const grandchild = await grandchildOf(run.root);
  run.log.close('exit code 0', new Date());
  assert.is(exit.exitCode, 0);
  assert.is(findMarkedProcesses(CHECK_MARKER, run.marker).length, 0, 'no process carries the marker');
  await within(2000, () => !isProcessAlive(grandchild), 'the lingering child to be gone');
});

checks.run();
