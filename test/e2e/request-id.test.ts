import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATUSES } from '../../lib/core/status.js';
import { readEvents } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { closeDaemons, healthy, runSvc, startChild } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// A retried call never duplicates (docs/daemon.md): a change the daemon may have got but did
// not answer names its request id, and a rerun with it returns the first answer.

/** The task files of `root` (every status). */
const taskFiles = (root: string) =>
  STATUSES.flatMap((s) => readdirSync(toPaths(root).statusDir(s)).filter((n) => n.endsWith('.md')));

/** The request id a failed command told the user to rerun with. */
function rerunId(stderr: string): string {
  const found =
    /the daemon may or may not have applied this; run the same command again with `--request-id ([^`]+)` to find out safely\./.exec(
      stderr,
    );
  assert.ok(found, `the error names a request id to rerun with:\n${stderr}`);
  return found[1]!;
}

/** Connections waiting in the listen queue of a socket in `dir` (a stopped daemon accepts none); the daemon binds a temporary name and renames it. */
function pendingConnections(dir: string): number {
  const line = execFileSync('ss', ['-xl'], { encoding: 'utf8' })
    .split('\n')
    .find((l) => l.includes(` ${dir}/`));
  return Number(line?.trim().split(/\s+/)[2] ?? 0);
}

const retry = suite('e2e: a retried call never duplicates');
retry.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

retry(
  'a create sent to a frozen daemon times out naming its request id; the rerun after SIGCONT returns the one task, before and after a restart',
  async () => {
    const root = tempRoot();
    const child = startChild(root);
    await healthy(root);
    const env = { SVC_HOME: root, SVC_REQUEST_TIMEOUT_MS: '1500' };
    process.kill(child.child.pid!, 'SIGSTOP');
    const started = Date.now();
    const first = await runSvc(env, 'task', 'create', 'Frozen', 'call');
    const tookMs = Date.now() - started;
    process.kill(child.child.pid!, 'SIGCONT');
    assert.is(first.code, 1);
    assert.match(
      first.stderr,
      /did not answer on .* \(no answer within 1500 ms\): the daemon may or may not have applied this/,
      first.stderr,
    );
    assert.ok(tookMs < 10_000, `the configured timeout ends the wait (${tookMs} ms)`);
    const id = rerunId(first.stderr);

    const again = await runSvc({ SVC_HOME: root }, 'task', 'create', 'Frozen', 'call', '--request-id', id);
    assert.is(again.code, 0, again.stderr);
    const taskId = again.stdout.split('\n')[0]!;
    assert.match(taskId, /^TASK-\d{4}-\d{2}-\d{2}-\d{3}$/);
    const third = await runSvc({ SVC_HOME: root }, 'task', 'create', 'Frozen', 'call', '--request-id', id);
    assert.is(third.stdout, again.stdout, 'the same answer again');
    assert.equal(taskFiles(root), [`${taskId}.md`]);

    await child.kill();
    startChild(root);
    await healthy(root);
    const afterRestart = await runSvc({ SVC_HOME: root }, 'task', 'create', 'Frozen', 'call', '--request-id', id);
    assert.is(afterRestart.stdout, again.stdout, 'a restarted daemon answers from data/requests/');
    assert.equal(taskFiles(root), [`${taskId}.md`]);
    assert.is((await readEvents(root, { type: 'task.created' })).length, 1);
  },
);

retry(
  'a daemon SIGKILLed with the create in its queue: the command says the outcome is unknown; the rerun applies it once, without a daemon and after a restart alike',
  async () => {
    const root = tempRoot();
    const child = startChild(root);
    await healthy(root);
    const env = { SVC_HOME: root };
    process.kill(child.child.pid!, 'SIGSTOP');
    const pending = runSvc(env, 'task', 'create', 'Killed', 'call');
    await within(15_000, () => pendingConnections(toPaths(root).data) >= 1, 'the create waiting in the socket queue');
    await child.kill();
    const first = await pending;
    assert.is(first.code, 1);
    assert.match(first.stderr, /may or may not have applied this/);
    const id = rerunId(first.stderr);

    const local = await runSvc(env, 'task', 'create', 'Killed', 'call', '--request-id', id);
    assert.is(local.code, 0, local.stderr);
    assert.equal(taskFiles(root), [`${local.stdout.split('\n')[0]}.md`]);
    startChild(root);
    await healthy(root);
    const remote = await runSvc(env, 'task', 'create', 'Killed', 'call', '--request-id', id);
    assert.is(remote.stdout, local.stdout, 'the daemon answers what the command applied');
    assert.is(taskFiles(root).length, 1);
    const other = await runSvc(env, 'task', 'create', 'Another', 'title', '--request-id', id);
    assert.is(other.code, 1);
    assert.match(
      other.stderr,
      `Request id ${id} was first used for another call (operator_task_create with other parameters)`,
    );
    assert.is(taskFiles(root).length, 1);
  },
);

retry.run();
