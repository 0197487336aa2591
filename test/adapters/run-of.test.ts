import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findRecordedRunOf, findRunOf } from '../../lib/adapters/run-of.js';
import { readProcessStat } from '../../lib/fs/process.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

const groups: number[] = [];

/** Starts `node -e script` detached (its own process group and Unix session, as a run) with `env`. */
function detached(script: string, env: Record<string, string> = {}): number {
  const child = spawn(process.execPath, ['-e', script], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, ...env },
  });
  child.unref();
  groups.push(child.pid!);
  return child.pid!;
}

/**
 * A leader that starts a child in a Unix session of its own (another process group and session,
 * as a double fork would), which starts a grandchild; both scrubbed of every variable. The
 * grandchild writes its pid to `file`: only its parents tie it to the leader.
 */
function leaderWithGrandchild(file: string): number {
  const grandchild = `require('node:fs').writeFileSync(${JSON.stringify(file)}, String(process.pid)); setTimeout(() => {}, 60000);`;
  const child = `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'ignore', env: {} }); setTimeout(() => {}, 60000);`;
  return detached(
    `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'ignore', env: {}, detached: true }); setTimeout(() => {}, 60000);`,
  );
}

/** Kills every process started here, with their groups (the grandchildren's too). */
function killAll(): void {
  for (const pid of groups.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  cleanRoots();
}

const of = suite('adapters.findRunOf');
of.after.each(killAll);

of(
  "a grandchild of a run, in a session of its own and its environment empty, is the run's by its parents; this process is no run's",
  async () => {
    const root = tempRoot();
    const leader = leaderWithGrandchild(`${root}/grandchild.pid`);
    const grandchild = await within(
      5000,
      () => existsSync(`${root}/grandchild.pid`) && Number(readFileSync(`${root}/grandchild.pid`, 'utf8')),
      'the grandchild',
    );
    groups.push(readProcessStat(grandchild)!.pgrp);
    assert.is.not(readProcessStat(grandchild)!.sid, leader, "the grandchild left the run's Unix session");
    const run = {
      taskId: 'TASK-2026-11-21-001',
      sessionId: 's1',
      pid: leader,
      startTime: readProcessStat(leader)!.startTime,
    };
    assert.equal(findRunOf(grandchild, [run]), run);
    assert.is(findRunOf(process.pid, [run]), null);
    assert.is(
      findRunOf(grandchild, [{ ...run, startTime: run.startTime + 1 }]),
      null,
      'a leader of another start time is a recycled pid: no run',
    );
  },
);

of("a process whose environment names a live run's session is that run's, wherever it was started", async () => {
  const leader = detached('setTimeout(() => {}, 60000)');
  const named = detached('setTimeout(() => {}, 60000)', { SVC_SESSION_ID: 's2' });
  await within(5000, () => readProcessStat(named) !== null && readProcessStat(leader) !== null, 'the processes');
  const run = { taskId: 'TASK-2026-11-21-002', sessionId: 's2', pid: leader };
  assert.equal(findRunOf(named, [run]), run);
  assert.is(findRunOf(named, [{ ...run, sessionId: 'other' }]), null);
});

const recorded = suite('adapters.findRecordedRunOf');
recorded.after.each(killAll);

recorded('only the runs of data/runs/ whose leader lives count', async () => {
  const root = tempRoot();
  const dir = `${root}/runs`;
  mkdirSync(dir);
  const leader = leaderWithGrandchild(`${root}/grandchild.pid`);
  const grandchild = await within(
    5000,
    () => existsSync(`${root}/grandchild.pid`) && Number(readFileSync(`${root}/grandchild.pid`, 'utf8')),
    'the grandchild',
  );
  groups.push(readProcessStat(grandchild)!.pgrp);
  writeFileSync(`${dir}/TASK-2026-11-21-003@s3`, `${leader} ${readProcessStat(leader)!.startTime}\n`);
  assert.equal(findRecordedRunOf(grandchild, dir)?.sessionId, 's3');
  writeFileSync(`${dir}/TASK-2026-11-21-003@s3`, `${leader} 1\n`);
  assert.is(findRecordedRunOf(grandchild, dir), null, 'a record of another start time is stale');
});

of.run();
recorded.run();
