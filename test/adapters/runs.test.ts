import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRunRegistry, type Run } from '../../lib/adapters/runs.js';
import { isProcessAlive, readProcessStat } from '../../lib/fs/process.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

const pids: number[] = [];

/** Starts `node -e script` detached (its own process group) with `env`; returns its pid. */
function detached(script: string, env: Record<string, string> = {}): number {
  const child = spawn(process.execPath, ['-e', script], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, ...env },
  });
  child.unref();
  pids.push(child.pid!);
  return child.pid!;
}

const runs = suite('adapters.createRunRegistry');
runs.after.each(() => {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  cleanRoots();
});

runs(
  'a record whose pid now belongs to another process (another start time) is gone: that process is never signalled',
  async () => {
    const dir = `${tempRoot()}/runs`;
    mkdirSync(dir);
    const stranger = detached('setTimeout(() => {}, 60000)', { SVC_SESSION_ID: 'someone-else' });
    await within(5000, () => readProcessStat(stranger) !== null, 'the process');
    writeFileSync(`${dir}/TASK-2026-11-21-001@s1`, `${stranger} 1\n`);
    const registry = createRunRegistry({ dir, stopGraceMs: () => 100 });
    const { alive, gone } = registry.adopt();
    assert.equal([alive.length, gone.map((run) => run.sessionId)], [0, ['s1']]);
    assert.is(registry.end('TASK-2026-11-21-001').length, 0);
    assert.ok(isProcessAlive(stranger), 'left alone');
    assert.not.ok(existsSync(`${dir}/TASK-2026-11-21-001@s1`), 'the record is removed');
  },
);

runs(
  'members left in the group after the leader exited are the run until they are gone; ending them confirms it',
  async () => {
    const dir = `${tempRoot()}/runs`;
    const root = dir.slice(0, -5);
    // The leader starts a member in its own group (not detached), writes its pid, and exits.
    const leader = detached(
      `
    const { spawn } = require('node:child_process');
    const member = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    require('node:fs').writeFileSync(${JSON.stringify(`${root}/member.pid`)}, String(member.pid));
    member.unref();
  `,
      { SVC_SESSION_ID: 's2', SVC_TASK_ID: 'TASK-2026-11-21-002' },
    );
    const member = await within(
      5000,
      () => existsSync(`${root}/member.pid`) && Number(readFileSync(`${root}/member.pid`, 'utf8')),
      'the member',
    );
    pids.push(member);
    await within(5000, () => !isProcessAlive(leader), 'the leader to exit');
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/TASK-2026-11-21-002@s2`, `${leader} 12345\n`);
    const gone: Run[] = [];
    const registry = createRunRegistry({ dir, stopGraceMs: () => 5000, onGone: (run) => gone.push(run) });
    assert.equal(
      registry.adopt().alive.map((run) => run.pid),
      [leader],
      'alive through its member',
    );
    assert.equal(
      registry.end('TASK-2026-11-21-002').map((run) => run.sessionId),
      ['s2'],
    );
    await within(5000, () => gone.length === 1, 'confirmed gone');
    assert.not.ok(isProcessAlive(member));
    assert.equal(registry.all(), []);
    registry.close();
  },
);

runs('a run that ignores SIGTERM is killed after the grace period and only then confirmed gone', async () => {
  const root = tempRoot();
  const dir = `${root}/runs`;
  const ready = `${root}/ready`;
  const pid = detached(
    `process.on("SIGTERM", () => {}); require('node:fs').writeFileSync(${JSON.stringify(ready)}, ''); setTimeout(() => {}, 60000)`,
    { SVC_SESSION_ID: 's3' },
  );
  await within(5000, () => existsSync(ready), 'its SIGTERM handler installed');
  const gone: Run[] = [];
  const registry = createRunRegistry({ dir, stopGraceMs: () => 400, onGone: (run) => gone.push(run) });
  const run = registry.add('TASK-2026-11-21-003', 's3', pid);
  assert.is(readFileSync(`${dir}/TASK-2026-11-21-003@s3`, 'utf8'), `${pid} ${run.startTime}\n`);
  const started = Date.now();
  registry.end('TASK-2026-11-21-003');
  await within(5000, () => gone.length === 1, 'confirmed gone');
  assert.ok(Date.now() - started >= 400, 'not before the grace period');
  assert.ok(run.killed, 'by SIGKILL');
  assert.not.ok(existsSync(`${dir}/TASK-2026-11-21-003@s3`));
  registry.close();
});

runs(
  "a process that left the run's group (setsid) is the run until it is gone; ending the run ends it, and its brief goes with it",
  async () => {
    const root = tempRoot();
    const briefsDir = `${root}/briefs`;
    mkdirSync(briefsDir);
    writeFileSync(`${briefsDir}/TASK-2026-11-21-004@s4`, 'the brief');
    // The leader starts a child in a session of its own (detached: setsid), writes its pid, and waits for a go.
    const leader = detached(
      `
    const { spawn } = require('node:child_process');
    const fs = require('node:fs');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore', detached: true });
    fs.writeFileSync(${JSON.stringify(`${root}/escaped.pid`)}, String(child.pid));
    child.unref();
    const wait = setInterval(() => fs.existsSync(${JSON.stringify(`${root}/go`)}) && clearInterval(wait), 20);
  `,
      { SVC_SESSION_ID: 's4', SVC_TASK_ID: 'TASK-2026-11-21-004' },
    );
    const escaped = await within(
      5000,
      () => existsSync(`${root}/escaped.pid`) && Number(readFileSync(`${root}/escaped.pid`, 'utf8')),
      'the escaped child',
    );
    pids.push(escaped);
    assert.is.not(readProcessStat(escaped)?.pgrp, leader, "outside the run's group");
    const gone: Run[] = [];
    const registry = createRunRegistry({
      dir: `${root}/runs`,
      briefsDir,
      stopGraceMs: () => 5000,
      checkMs: 20,
      onGone: (run) => gone.push(run),
    });
    const run = registry.add('TASK-2026-11-21-004', 's4', leader);
    writeFileSync(`${root}/go`, '');
    await within(5000, () => !isProcessAlive(leader), 'the leader to exit');
    registry.exited(run);
    assert.is(run.state, 'watched', 'still the run: its escaped child lives');
    assert.is(gone.length, 0);
    assert.ok(existsSync(`${briefsDir}/TASK-2026-11-21-004@s4`), 'the brief is kept while the run lives');
    assert.equal(
      registry.end('TASK-2026-11-21-004').map((r) => r.sessionId),
      ['s4'],
    );
    await within(5000, () => gone.length === 1, 'confirmed gone');
    assert.not.ok(isProcessAlive(escaped), 'the escaped child was ended');
    assert.not.ok(existsSync(`${briefsDir}/TASK-2026-11-21-004@s4`), 'the brief is removed');
    registry.close();
  },
);

runs.run();
