import { mkdirSync, rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dirSyncCount, fsyncDir } from '../../lib/fs/fsync-dir.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const shared = suite('fs.fsyncDir (group commit)');
shared.after.each(cleanRoots);

shared('calls made while a directory fsync runs share the next one: 32 calls, 2 fsyncs', async () => {
  const dir = tempRoot();
  const before = dirSyncCount();
  await Promise.all(Array.from({ length: 32 }, () => fsyncDir(dir)));
  assert.is(dirSyncCount() - before, 2);
});

shared('a call made while an fsync runs returns only after an fsync that began after the call', async () => {
  const dir = tempRoot();
  const first = fsyncDir(dir);
  const atCall = dirSyncCount(); // the running fsync is counted: it began before the second call
  let resolvedAfter = -1;
  const second = fsyncDir(dir).then(() => (resolvedAfter = dirSyncCount()));
  await Promise.all([first, second]);
  assert.ok(resolvedAfter > atCall, `resolved after ${resolvedAfter} fsyncs, ${atCall} had begun at the call`);
  const third = dirSyncCount();
  await fsyncDir(dir); // nothing runs now: a call of its own
  assert.is(dirSyncCount(), third + 1);
});

shared('directories are synced apart, and a failed fsync fails every call that waits on it', async () => {
  const root = tempRoot();
  mkdirSync(`${root}/a`);
  mkdirSync(`${root}/b`);
  const before = dirSyncCount();
  await Promise.all([fsyncDir(`${root}/a`), fsyncDir(`${root}/b`)]);
  assert.is(dirSyncCount() - before, 2);
  const running = fsyncDir(`${root}/a`);
  const waiting = [fsyncDir(`${root}/a`), fsyncDir(`${root}/a`)];
  rmSync(`${root}/a`, { recursive: true });
  await running.catch(() => undefined); // begun before the removal: it may still succeed
  for (const call of waiting) {
    const err = await call.then(
      () => null,
      (e: unknown) => e,
    );
    assert.is((err as { code?: string } | null)?.code, 'ENOENT');
  }
  await fsyncDir(`${root}/b`); // the other directory is untouched
});

shared.run();
