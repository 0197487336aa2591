import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { SVC_BIN } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const run = promisify(execFile);
const quickstart = suite('e2e.quickstart');
quickstart.after.each(cleanRoots);

quickstart('svc quickstart runs the sample to done with no gateway, then stops its daemon', async () => {
  const root = tempRoot();
  const { stdout } = await run(process.execPath, [SVC_BIN, 'quickstart', '--timeout', '90'], {
    env: { ...process.env, SVC_HOME: root },
    timeout: 120_000,
  });
  assert.match(stdout, /svc daemon started \(pid \d+\)/);
  assert.match(stdout, /All 4 tasks are done\./);
  assert.match(stdout, /Done \(4\)/);
  assert.match(stdout, /svc daemon stopped/);
  assert.equal(readdirSync(`${root}/tasks/done`).filter((n) => n.endsWith('.md')).length, 4);
  assert.not.ok(existsSync(`${root}/data/daemon.pid`), 'daemon stopped');
  const dispatched = await readEvents(root, { type: 'task.dispatched' });
  const agents = dispatched.map((e) => e.payload.agent);
  assert.equal(agents.filter((a) => a === 'reviewer').length, 3, 'each gated task reviewed once');
  // A run that handed its task on to the next gate exits by itself: its log ends with its own exit code.
  const handedOn = dispatched.filter((e, i) => dispatched.slice(i + 1).some((later) => later.taskId === e.taskId));
  assert.is(handedOn.length, 3);
  for (const { taskId, payload } of handedOn) {
    const log = readFileSync(`${root}/data/logs/runs/${taskId}/${String(payload.sessionId)}-1.log`, 'utf8');
    assert.match(log.trim().split('\n').at(-1)!, 'svc run ended: exit code 0', `the implementer of ${taskId}`);
  }
  assert.equal((await readEvents(root, { type: 'gate.transition' })).length, 6);
  const chart = `${root}/org/org-chart.yaml`;
  const edited = readFileSync(chart, 'utf8').replace(/maxConcurrent: \d+/, 'maxConcurrent: 4');
  assert.is.not(edited, readFileSync(chart, 'utf8'), 'the sample has a maxConcurrent to edit');
  writeFileSync(chart, edited);
  const again = await run(process.execPath, [SVC_BIN, 'quickstart'], { env: { ...process.env, SVC_HOME: root } }).then(
    () => null,
    (err: { code: number; stderr: string }) => err,
  );
  assert.is(again?.code, 1, 'an edited sample is not overwritten');
  assert.match(
    again!.stderr,
    /org-chart\.yaml already exists and differs from the quickstart's sample \(first difference at line \d+: yours is ".*maxConcurrent: 4", the sample's is ".*maxConcurrent: [0-35-9]\d*"\); the quickstart does not overwrite it\./,
  );
  assert.is(readFileSync(chart, 'utf8'), edited);
});

quickstart(
  "the README's tour of the task commands runs as written while the daemon runs, and no agent takes its task",
  async () => {
    const root = tempRoot();
    const env = { ...process.env, SVC_HOME: root, PATH: `${dirname(SVC_BIN)}:${process.env.PATH ?? ''}` };
    await run(process.execPath, [SVC_BIN, 'quickstart', '--keep-running', '--timeout', '90'], {
      env,
      timeout: 120_000,
    });
    try {
      const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
      const tour = /Tasks\. A task is a file[^]*?```sh\n([^]*?)```/.exec(readme)?.[1];
      assert.ok(tour?.includes('svc task claim $id'), "the tour's block of task commands");
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', `${tour}\necho "tour-id=$id"`], {
        env,
        timeout: 60_000,
      });
      const id = /tour-id=(\S+)/.exec(stdout)![1]!;
      assert.match(stdout, new RegExp(`${id} in-progress: leased to operator`));
      assert.match(stdout, new RegExp(`${id} in-progress -> done`));
      assert.equal((await readEvents(root, { taskId: id, type: 'task.dispatched' })).length, 0, 'no agent took it');
    } finally {
      await run(process.execPath, [SVC_BIN, 'daemon', 'stop'], { env });
    }
  },
);

quickstart("refuses to overwrite an org chart that is not the quickstart's", async () => {
  const root = tempRoot();
  const { mkdirSync, writeFileSync } = await import('node:fs');
  mkdirSync(`${root}/org`, { recursive: true });
  writeFileSync(`${root}/org/org-chart.yaml`, 'schemaVersion: 1\nagents: []\n');
  const failed = await run(process.execPath, [SVC_BIN, 'quickstart'], { env: { ...process.env, SVC_HOME: root } }).then(
    () => null,
    (err: { code: number; stderr: string }) => err,
  );
  assert.is(failed?.code, 1);
  assert.match(
    failed!.stderr,
    /already exists and differs from the quickstart's sample \(first difference at line 1: yours is "schemaVersion: 1", the sample's is "# The quickstart workspace: two local agents run as child processes of the daemon \(no gateway\)\."\)/,
  );
  assert.match(failed!.stderr, /hint: Keep it .*or run the sample in a fresh home: SVC_HOME=/);
});

quickstart('validates --timeout before writing anything', async () => {
  const root = tempRoot();
  for (const bad of ['abc', '0', '1e9']) {
    const out = await svc(root, 'quickstart', '--timeout', bad);
    assert.is(out.code, 1, bad);
    assert.match(out.stderr, /--timeout must be a number of seconds between 0 and 86400/);
    assert.match(out.stderr, /hint: For example: svc quickstart --timeout 300/);
  }
  assert.not.ok(existsSync(`${root}/org`));
});

quickstart.run();
