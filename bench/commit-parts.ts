import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { dirSyncCount, fsyncDir } from '../lib/fs/fsync-dir.js';
import { withLock } from '../lib/fs/lock/lock.js';
import { replaceFileDurable } from '../lib/fs/replace-file.js';
import { allocateId } from '../lib/store/commit/allocate.js';
import { locateTask } from '../lib/store/commit/protocol.js';
import type { Store } from '../lib/store/commit/store.js';
import { renderTask } from '../lib/store/disk/task-file.js';
import { formatNumber, median, timeMs, type Row } from './measure.js';

/** Milliseconds per operation of each step of a commit, one run. */
export interface Parts {
  [step: string]: number;
}

/**
 * Times each step of a create and a transition alone, `ops` times, on `store`'s tree: the lock
 * (acquire and release), the id reservation, the locate (find the file, read and parse it), the
 * render (the frontmatter writer, one pass), the durable write (temporary file, fsync, rename,
 * directory fsync), a directory fsync alone and the event append. Their sum beside a change's
 * time tells what is left (promise hops, the change function, the commit's own checks).
 */
export async function measureParts(store: Store, ops: number, content: string): Promise<Parts> {
  const { paths } = store;
  const task = await store.create({ title: 'Parts', createdBy: 'bench', body: content });
  const per = async (fn: (i: number) => Promise<unknown>) =>
    (await timeMs(async () => {
      for (let i = 0; i < ops; i++) await fn(i);
    })) / ops;
  const now = new Date();
  const events = [{ type: 'bench.part', taskId: task.task.id, actor: 'bench', payload: { step: 'append' } }];
  const before = dirSyncCount();
  const parts: Parts = {
    lock: await per(() => withLock(paths.lockFile(task.task.id), { what: task.task.id }, async () => undefined)),
    reserve: await per(() => allocateId(paths, now)),
    locate: await per(() => locateTask(paths, task.task.id, { now })),
    render: await per(() => Promise.resolve(renderTask(task.task, task.body))),
    write: await per((i) =>
      replaceFileDurable(join(paths.statusDir('backlog'), `bench-part-${i % 8}.tmp-bench`), content),
    ),
    dirFsync: await per(() => fsyncDir(paths.statusDir('backlog'))),
    append: await per(() => store.events.record(now, events)),
    ...(await inodeParts(join(paths.tasks, '.bench-parts'), per)),
  };
  if (dirSyncCount() - before < 2 * ops)
    throw new Error('bench: the parts made fewer directory fsyncs than they should');
  return parts;
}

/** The breakdown rows: each step's median ms, and its rate beside the raw durable write. */
export function partRows(runs: readonly Parts[], raw: number): Row[] {
  const steps: [keyof Parts & string, string][] = [
    ['lock', 'lock acquire + release (mkdir, owner symlink; unlink, rmdir)'],
    ['reserve', 'id reservation of a create (exclusive empty file in tasks/.seq/)'],
    ['locate', 'locate of a transition (stat the 7 directories, read, parse)'],
    ['render', 'render (the frontmatter writer, one pass)'],
    ['write', 'durable write (temp, fsync, rename, dir fsync)'],
    ['dirFsync', 'directory fsync alone'],
    ['append', 'event append'],
    ['makeFile', 'a new empty file that stays (open O_CREAT|O_EXCL, close), no fsync'],
    ['makeDir', 'a new directory that stays (mkdir), no fsync'],
  ];
  return steps.map(([key, what]) => {
    const ms = median(runs.map((run) => run[key]!));
    return {
      section: 'store',
      metric: `  part: ${what}`,
      value: formatNumber(ms, 'ms'),
      note: `${((ms * raw) / 10).toFixed(0)} % of one raw durable write's time`,
    };
  });
}

// --- internal ---

/**
 * What making an inode costs on this disk, with no fsync anywhere: a file and a directory that
 * stay, as the id reservations and the task files do (each removed only after the timing). A
 * create makes four inodes (the reservation, the lock's directory and owner symlink, the
 * temporary file that becomes the task file), a raw durable write one.
 */
async function inodeParts(dir: string, per: (fn: (i: number) => Promise<unknown>) => Promise<number>): Promise<Parts> {
  mkdirSync(dir, { recursive: true });
  try {
    return {
      makeFile: await per(async (i) => closeSync(openSync(join(dir, `f${i}`), 'wx'))),
      makeDir: await per(async (i) => mkdirSync(join(dir, `d${i}`))),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
