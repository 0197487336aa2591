import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readlinkSync, watch } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { StoredTask } from '../../../lib/store/disk/task-file.js';
import { closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

const locks = suite('store.tree-locks');
locks.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

const script = fileURLToPath(new URL('../../helpers/outside-writer.ts', import.meta.url));

/** A writer outside the daemon in a process of its own (test/helpers/outside-writer.ts). */
function outside(...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const printed = (line: string) =>
    within(30_000, () => lines.includes(line) || (child.exitCode !== null && Promise.reject(new Error(stderr))));
  return { lines, exited, printed, stderr: () => stderr };
}

function bump(current: StoredTask) {
  const count = Number(current.task.metadata.count ?? 0) + 1;
  return {
    task: { ...current.task, metadata: { ...current.task.metadata, count } },
    body: current.body,
    status: current.status,
  };
}

locks('a change of the daemon takes no lock directory: none is made in tasks/.locks', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root);
  const { task } = await daemon.store.create({ title: 'Quiet', createdBy: 'test' });
  mkdirSync(daemon.store.paths.locks, { recursive: true });
  const seen: string[] = [];
  const watcher = watch(
    daemon.store.paths.locks,
    (_event, name) => void (name?.startsWith('TASK-') && seen.push(name)),
  );
  for (let i = 0; i < 20; i++) await daemon.store.commit(task.id, bump, 'test');
  await daemon.store.create({ title: 'Another', createdBy: 'test' });
  const marker = `${daemon.store.paths.locks}/TASK-marker.lock`;
  mkdirSync(marker); // the watch's own events arrive in order: once this one is seen, the earlier ones were
  await within(5000, () => seen.includes('TASK-marker.lock'));
  watcher.close();
  assert.equal(
    seen.filter((name) => name !== 'TASK-marker.lock'),
    [],
    'no task lock directory was made',
  );
  assert.is((await daemon.store.get(task.id)).task.metadata.count, 20);
});

locks('16 concurrent changes of one task in the daemon and 16 by a writer outside it all land', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root);
  const { task } = await daemon.store.create({ title: 'Contested', createdBy: 'test' });
  const writer = outside('bump', root, task.id, '16');
  const results = await Promise.all(Array.from({ length: 16 }, () => daemon.store.commit(task.id, bump, 'daemon')));
  assert.is(results.filter((result) => result.changed).length, 16);
  assert.is(await writer.exited, 0, writer.stderr());
  assert.is((await daemon.store.get(task.id)).task.metadata.count, 32, 'no change lost');
});

locks(
  'two daemons on one tree: one changes it under memory locks, the other waits for it as a writer outside',
  async () => {
    const root = tempRoot();
    const daemon = await startTestDaemon(root);
    const { task } = await daemon.store.create({ title: 'Shared', createdBy: 'test' });
    await daemon.store.commit(task.id, bump, 'daemon'); // the first change claims the tree's mark
    const mark = `${daemon.store.paths.locks}/memory-locks`;
    assert.is(readlinkSync(mark), `${hostname()} ${process.pid}`);
    const second = outside('daemon-bump', root, task.id, '16');
    const results = await Promise.all(Array.from({ length: 16 }, () => daemon.store.commit(task.id, bump, 'daemon')));
    assert.is(results.filter((result) => result.changed).length, 16);
    assert.is(await second.exited, 0, second.stderr());
    assert.is((await daemon.store.get(task.id)).task.metadata.count, 33, 'no change lost');
    assert.is(readlinkSync(mark), `${hostname()} ${process.pid}`, "the mark is still the first daemon's");
  },
);

locks('a lock directory held outside the daemon makes its change wait, then succeed', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root);
  const { task } = await daemon.store.create({ title: 'Held', createdBy: 'test' });
  const writer = outside('hold', root, task.id, '1500');
  await writer.printed('held');
  const change = await daemon.store.commit(task.id, bump, 'daemon');
  assert.ok(writer.lines.includes('released') || (await writer.exited) === 0, 'the change waited for the release');
  assert.ok(change.changed);
  assert.is((await daemon.store.get(task.id)).task.metadata.count, 1);
});

locks('a lock directory held outside past the wait fails the daemon change with locked', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root);
  const { task } = await daemon.store.create({ title: 'Held long', createdBy: 'test' });
  const writer = outside('hold', root, task.id, '8000');
  await writer.printed('held');
  const failed = await daemon.store.commit(task.id, bump, 'daemon').catch((err: unknown) => err);
  assert.is((failed as { code?: string }).code, 'locked');
  assert.not.ok(writer.lines.includes('released'), 'it failed while the lock was still held');
  await writer.exited;
  assert.is((await daemon.store.get(task.id)).task.metadata.count, undefined, 'nothing was written');
});

locks('a writer outside that takes a lock while the daemon changes the task waits for that change to end', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root);
  const { task } = await daemon.store.create({ title: 'In flight', createdBy: 'test' });
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  let calls = 0;
  const change = daemon.store.commit(
    task.id,
    async (current) => {
      calls++;
      entered();
      await gate;
      return bump(current);
    },
    'daemon',
  );
  await inside;
  const writer = outside('bump', root, task.id, '1');
  const lock = daemon.store.paths.lockFile(task.id);
  await within(30_000, () => existsSync(lock), 'the writer outside holds the lock directory');
  // What is checked is an absence: the writer, which holds the lock, is given a second to (wrongly) finish.
  const finished = await Promise.race([writer.exited.then(() => true), delay(1000).then(() => false)]);
  assert.not.ok(finished, 'the writer outside did not write while the change of the daemon was in flight');
  assert.not.ok(existsSync(`${lock}/fenced`), 'not fenced while the change of the daemon is in flight');
  open();
  assert.ok((await change).changed);
  assert.is(await writer.exited, 0, writer.stderr());
  assert.is(calls, 1, 'the change of the daemon found the file as it read it: nobody wrote meanwhile');
  assert.is((await daemon.store.get(task.id)).task.metadata.count, 2, 'both changes landed, one after the other');
});

locks.run();
