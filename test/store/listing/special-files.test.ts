import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../../lib/store/commit/store.js';
import { SVC_BIN } from '../../helpers/agents.js';
import { svc } from '../../helpers/cli.js';
import { call, healthy, taskText, writeTaskFiles } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

// Only regular files are tasks (docs/reliability.md). Whatever blocks or floods a reader (a FIFO,
// a symlink to /dev/zero) runs in a child process here, under a memory limit, so a regression fails
// the test instead of stalling or swelling the test process.

const special = suite('store: only regular files are tasks');
const started = new Set<ReturnType<typeof spawn>>();
special.after.each(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.clear();
  cleanRoots();
});

special(
  'a FIFO, a symlink to /dev/zero, a dangling symlink and a directory in ready/ stall neither the daemon nor the commands',
  async () => {
    const root = tempRoot();
    const [valid] = await writeTaskFiles(root, 1, () => 'ready');
    const ready = join(root, 'tasks', 'ready');
    execFileSync('mkfifo', [join(ready, 'TASK-2026-01-01-101.md')]);
    symlinkSync('/dev/zero', join(ready, 'TASK-2026-01-01-102.md'));
    symlinkSync(join(root, 'nowhere.md'), join(ready, 'TASK-2026-01-01-103.md'));
    mkdirSync(join(ready, 'TASK-2026-01-01-104.md'));
    const daemon = startLimited(root, ['daemon', 'run']);
    await healthy(root, 30_000).catch((err: Error) => assert.unreachable(`${err.message}\n${daemon.output()}`));
    execFileSync('mkfifo', [join(root, 'tasks', 'backlog', 'TASK-2026-01-01-105.md')]); // one more, landing while it runs
    const listed = await within(
      20_000,
      async () => {
        const { body } = await call(root, 'GET', '/v1/tasks');
        const reply = body as { tasks: { id: string }[]; invalid: { path: string; message: string }[] };
        return reply.invalid.length === 5 ? reply : null;
      },
      'the daemon reporting the five special files',
    );
    assert.equal(
      listed.tasks.map((t) => t.id),
      [valid],
    );
    assertKinds(listed.invalid.map((file) => file.message).join('\n'));
    assert.is((await call(root, 'GET', '/healthz')).status, 200);

    const list = await runLimited(root, ['task', 'list']);
    assert.is(list.code, 0, list.stderr);
    assertKinds(list.stderr);
    const board = await runLimited(root, ['board']);
    assert.is(board.code, 0, board.stderr);
    assertKinds(board.stdout);
    const doctor = await runLimited(root, ['doctor']);
    assert.is(doctor.code, 1, doctor.stderr);
    assertKinds(doctor.stdout);
    assert.match(doctor.stdout, /5 problems: 5 invalid files/);

    daemon.child.kill('SIGTERM');
    const exit = await within(20_000, () => daemon.exit(), 'the daemon to stop on SIGTERM');
    assert.equal(exit, { code: 0, signal: null }, daemon.output());
    const offline = await runLimited(root, ['task', 'list', '--json']);
    assert.equal(
      JSON.parse(offline.stdout).map((t: { id: string }) => t.id),
      [valid],
    );
    assertKinds(offline.stderr);
  },
);

special('updating a task whose file is a symlink refuses, and the file outside tasks/ keeps its bytes', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const { task, path } = await store.create({ title: 'Linked', createdBy: 'test', body: 'Original\n' });
  const outside = join(root, 'outside.md');
  renameSync(path, outside);
  symlinkSync(outside, path);
  const before = readFileSync(outside, 'utf8');
  const update = await svc(root, 'task', 'update', task.id, '--body', 'Overwritten');
  assert.is(update.code, 1);
  assert.match(update.stderr, /a symbolic link to .*outside\.md \(a regular file\), not a regular file/);
  const promote = await svc(root, 'task', 'promote', task.id);
  assert.is(promote.code, 1);
  assert.is(readFileSync(outside, 'utf8'), before);
  assert.ok(lstatSync(path).isSymbolicLink(), 'the link itself is left for a human');
  assert.equal(
    (await store.list()).invalid.map((file) => file.path),
    [path],
  );
});

special('doctor names a directory called <id>.md in a status directory instead of walking into it', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const dir = join(root, 'tasks', 'backlog', 'TASK-2026-01-01-009.md');
  mkdirSync(dir);
  writeFileSync(join(dir, 'TASK-2026-01-01-010.md'), taskText('TASK-2026-01-01-010', 'backlog', 'Nested'));
  const doctor = await svc(root, 'doctor');
  assert.is(doctor.code, 1);
  assert.match(doctor.stdout, /^invalid tasks\/backlog\/TASK-2026-01-01-009\.md: .*a directory, not a regular file/m);
  assert.not.match(doctor.stdout, /010/);
});

special.run();

// --- helpers ---

/** Every kind of special file, said as what it is. */
function assertKinds(text: string): void {
  assert.match(text, /TASK-2026-01-01-101\.md: a FIFO \(named pipe\), not a regular file/);
  assert.match(
    text,
    /TASK-2026-01-01-102\.md: a symbolic link to \/dev\/zero \(a character device\), not a regular file/,
  );
  assert.match(text, /TASK-2026-01-01-103\.md: a symbolic link to .*nowhere\.md \(dangling: nothing is there\)/);
  assert.match(text, /TASK-2026-01-01-104\.md: a directory, not a regular file/);
}

/** The virtual memory a child may use (KiB): a reader flooded by /dev/zero fails instead of swelling. */
const MEMORY_KIB = 2_000_000;

/** Starts `svc <args>` (the built bin) on `root` under the memory limit. */
function startLimited(root: string, args: string[]) {
  const child = spawn('sh', ['-c', `ulimit -v ${MEMORY_KIB} && exec "$0" "$@"`, process.execPath, SVC_BIN, ...args], {
    env: { ...process.env, SVC_HOME: root, DEBUG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  let ended: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const closed = new Promise<void>((resolve) =>
    child.on('close', (code, signal) => {
      ended = { code, signal };
      resolve();
    }),
  );
  return {
    child,
    closed,
    output: () => stdout + stderr,
    stdout: () => stdout,
    stderr: () => stderr,
    exit: () => ended,
  };
}

/** Runs `svc <args>` to its end; a command that hangs is killed and fails the test. */
async function runLimited(
  root: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = startLimited(root, args);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), 30_000);
  await run.closed;
  clearTimeout(timer);
  assert.ok(run.child.signalCode === null, `svc ${args.join(' ')} hung and was killed:\n${run.output()}`);
  return { code: run.exit()!.code, stdout: run.stdout(), stderr: run.stderr() };
}
