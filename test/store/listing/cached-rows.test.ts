import { readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listCachedRows } from '../../../lib/store/listing/cached-rows.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { taskText, writeTaskFiles } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const ACTIVE = ['backlog', 'ready', 'in-progress', 'blocked', 'deadletter'] as const;
const VERSION = '1.2.3';

/** Rewrites the cached title of `id` in the cache of `status` (a stand-in for a row read earlier). */
function tamperCache(
  root: string,
  status: 'ready' | 'done',
  id: string,
  title: string,
  options: { version?: string; later?: boolean } = {},
): void {
  const file = toPaths(root).rowCache(status);
  const cache = JSON.parse(readFileSync(file, 'utf8')) as {
    version: string;
    entries: Record<string, { row: { title: string } }>;
  };
  cache.entries[`${id}.md`]!.row.title = title;
  if (options.version) cache.version = options.version;
  const { atime, mtime } = statSync(file);
  writeFileSync(file, JSON.stringify(cache));
  // `later`: the cache was written well after the task files (else it keeps its mtime of the first listing)
  const at = options.later ? new Date(Date.now() + 60_000) : mtime;
  utimesSync(file, atime, at);
}

const rows = suite('store.listCachedRows');
rows.after.each(() => cleanRoots());

rows(
  'reads the statuses asked and counts the others by name: a file in done/ that does not parse is not even read',
  async () => {
    const root = tempRoot();
    await writeTaskFiles(root, 6, (i) => (i <= 2 ? 'ready' : i <= 5 ? 'done' : 'cancelled'));
    writeFileSync(toPaths(root).taskFile('done', 'TASK-2026-01-01-099'), 'not a task at all\n');
    const listing = await listCachedRows(toPaths(root), { statuses: ACTIVE, version: VERSION });
    assert.equal(
      listing.rows.map((row) => `${row.id} ${row.status}`),
      ['TASK-2026-01-01-001 ready', 'TASK-2026-01-01-002 ready'],
    );
    assert.equal(listing.invalid, []);
    assert.is(listing.counts.done, 4);
    assert.is(listing.counts.cancelled, 1);
    assert.is(listing.counts.ready, 2);
    const all = await listCachedRows(toPaths(root), { statuses: ['done'], version: VERSION });
    assert.is(all.rows.length, 3);
    assert.is(all.invalid.length, 1, 'asked for, done/ is read and its invalid file reported');
  },
);

rows('a row comes from the cache only for the very file version it was read from', async () => {
  const root = tempRoot();
  const [id] = await writeTaskFiles(root, 1, () => 'ready');
  const old = new Date(Date.now() - 60_000);
  utimesSync(toPaths(root).taskFile('ready', id!), old, old);
  await listCachedRows(toPaths(root), { statuses: ['ready'], version: VERSION });
  tamperCache(root, 'ready', id!, 'From the cache', { later: true });
  const cached = await listCachedRows(toPaths(root), { statuses: ['ready'], version: VERSION });
  assert.is(cached.rows[0]!.title, 'From the cache', 'the same file version: its cached row');
  writeFileSync(toPaths(root).taskFile('ready', id!), taskText(id!, 'ready', 'Edited by hand, longer'));
  const edited = await listCachedRows(toPaths(root), { statuses: ['ready'], version: VERSION });
  assert.is(edited.rows[0]!.title, 'Edited by hand, longer', 'a changed file is read again');
});

rows(
  'a file changed within two seconds of the cache write is read again (a rewrite in the same mtime tick keeps its stamp)',
  async () => {
    const root = tempRoot();
    const [id] = await writeTaskFiles(root, 1, () => 'ready');
    await listCachedRows(toPaths(root), { statuses: ['ready'], version: VERSION });
    tamperCache(root, 'ready', id!, 'From the cache');
    const listing = await listCachedRows(toPaths(root), { statuses: ['ready'], version: VERSION });
    assert.is(listing.rows[0]!.title, 'Task 1');
  },
);

rows('a cache of another svc version, or one that is not JSON, is not used', async () => {
  const root = tempRoot();
  const [id] = await writeTaskFiles(root, 1, () => 'ready');
  const old = new Date(Date.now() - 60_000);
  utimesSync(toPaths(root).taskFile('ready', id!), old, old);
  await listCachedRows(toPaths(root), { statuses: ['ready'], version: VERSION });
  tamperCache(root, 'ready', id!, 'From the cache', { later: true, version: '0.0.1' });
  assert.is((await listCachedRows(toPaths(root), { statuses: ['ready'], version: VERSION })).rows[0]!.title, 'Task 1');
  writeFileSync(toPaths(root).rowCache('ready'), '{"format": 1, "entr');
  assert.is((await listCachedRows(toPaths(root), { statuses: ['ready'], version: VERSION })).rows[0]!.title, 'Task 1');
  assert.ok(JSON.parse(readFileSync(toPaths(root).rowCache('ready'), 'utf8')).entries[`${id}.md`], 'rewritten whole');
});

rows('an entry of the wrong shape (a cache edited by hand) is read again, not trusted', async () => {
  const root = tempRoot();
  const [id] = await writeTaskFiles(root, 1, () => 'ready');
  const old = new Date(Date.now() - 60_000);
  utimesSync(toPaths(root).taskFile('ready', id!), old, old);
  await listCachedRows(toPaths(root), { statuses: ['ready'], version: VERSION });
  const file = toPaths(root).rowCache('ready');
  const cache = JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, { row: Record<string, unknown> }> };
  cache.entries[`${id}.md`]!.row.title = 42;
  writeFileSync(file, JSON.stringify(cache));
  const later = new Date(Date.now() + 60_000);
  utimesSync(file, later, later);
  assert.is((await listCachedRows(toPaths(root), { statuses: ['ready'], version: VERSION })).rows[0]!.title, 'Task 1');
});

rows(
  'a task moved by hand into done/ leaves the active rows and counts as done, with its cached row in ready/ dropped',
  async () => {
    const root = tempRoot();
    const [first] = await writeTaskFiles(root, 3, () => 'ready');
    const paths = toPaths(root);
    await listCachedRows(paths, { statuses: ACTIVE, version: VERSION });
    renameSync(paths.taskFile('ready', first!), paths.taskFile('done', first!));
    const listing = await listCachedRows(paths, { statuses: ACTIVE, version: VERSION });
    assert.equal(
      listing.rows.map((row) => row.id),
      ['TASK-2026-01-01-002', 'TASK-2026-01-01-003'],
    );
    assert.is(listing.counts.done, 1);
    assert.is(listing.counts.ready, 2);
    assert.not.ok(JSON.parse(readFileSync(paths.rowCache('ready'), 'utf8')).entries[`${first}.md`]);
    const done = await listCachedRows(paths, { statuses: ['done'], version: VERSION });
    assert.equal(
      done.rows.map((row) => `${row.id} ${row.status}`),
      [`${first} done`],
    );
  },
);

rows('an id in two directories counts once, where its newer copy is', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  const [id] = await writeTaskFiles(root, 1, () => 'ready');
  const newer = taskText(id!, 'done', 'Finished').replace(/updatedAt: .*/, "updatedAt: '2026-02-01T00:00:00.000Z'");
  writeFileSync(paths.taskFile('done', id!), newer);
  const listing = await listCachedRows(paths, { statuses: ACTIVE, version: VERSION });
  assert.equal(listing.rows, []);
  assert.is(listing.counts.done, 1);
  assert.is(listing.counts.ready, 0);
  const all = await listCachedRows(paths, { statuses: ['ready', 'done'], version: VERSION });
  assert.equal(
    all.rows.map((row) => `${row.status} ${row.title}`),
    ['done Finished'],
  );
});

rows.run();
