import { lstatSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { taskText, writeTaskFiles } from '../../helpers/daemon.js';
import { tempRoot } from '../../helpers/root.js';
import { closeIndexes, open, scan, view } from './tasks-fixture.js';

// The index (lib/store/index/tasks.ts) is the daemon's view of tasks/: what it reads and what an entry holds.
const create = suite('store.createTaskIndex');
create.after.each(closeIndexes);

create('scans every status: counts, entries, done tasks loaded in the background, invalid files reported', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 6, (i) => (i <= 2 ? 'ready' : i <= 4 ? 'done' : 'cancelled'));
  const paths = toPaths(root);
  writeFileSync(paths.taskFile('backlog', 'TASK-BROKEN'), '---\ntitle: [unclosed\n---\n');
  writeFileSync(join(paths.statusDir('ready'), '.TASK-9.md'), 'dotfile');
  writeFileSync(join(paths.statusDir('ready'), 'TASK-9.md.1234'), 'temporary');
  const invalid: string[] = [];
  const index = await open(root, { onInvalid: (file) => invalid.push(file.path) });
  assert.equal(index.counts(), {
    backlog: 0,
    ready: 2,
    'in-progress': 0,
    blocked: 0,
    done: 2,
    deadletter: 0,
    cancelled: 2,
  });
  assert.equal(view(index), await scan(root));
  const entry = index.get('TASK-2026-01-01-001')!;
  assert.equal(
    [entry.status, entry.title, entry.priority, entry.agent, entry.path],
    ['ready', 'Task 1', 'normal', 'dev', paths.taskFile('ready', 'TASK-2026-01-01-001')],
  );
  assert.equal(entry.routing, { agent: 'dev' });
  assert.equal(
    [...index.summaries('done')].map((e) => e.id),
    ['TASK-2026-01-01-003', 'TASK-2026-01-01-004'],
  );
  assert.equal(entry.dependsOn, []);
  assert.equal(invalid, [paths.taskFile('backlog', 'TASK-BROKEN')]);
  assert.match(index.invalid()[0]!.message, /malformed YAML/);
});

create(
  "an entry's path and file time are the file's own (derived, not stored): they follow moves and rewrites, and the newer of two copies wins by its file time",
  async () => {
    const root = tempRoot();
    await writeTaskFiles(root, 3, (i) => (i === 3 ? 'done' : 'backlog'));
    const paths = toPaths(root);
    const index = await open(root, { watch: false, rescanIntervalMs: 60_000 });
    const fileOf = (id: string) => {
      const entry = index.get(id)!;
      return [entry.path, entry.mtimeMs, entry.stamp, Object.keys(entry).includes('path')];
    };
    const expect = (status: 'backlog' | 'blocked' | 'done', id: string) => {
      const s = lstatSync(paths.taskFile(status, id));
      return [paths.taskFile(status, id), s.mtimeMs, `${s.ino}:${s.size}:${s.mtimeMs}`, false];
    };
    assert.equal(
      fileOf('TASK-2026-01-01-003'),
      expect('done', 'TASK-2026-01-01-003'),
      'a done task read in the background',
    );
    renameSync(paths.taskFile('backlog', 'TASK-2026-01-01-001'), paths.taskFile('blocked', 'TASK-2026-01-01-001'));
    utimesSync(
      paths.taskFile('blocked', 'TASK-2026-01-01-001'),
      new Date('2026-02-01T00:00:00.250Z'),
      new Date('2026-02-01T00:00:00.250Z'),
    );
    await index.update(['TASK-2026-01-01-001']);
    assert.equal(
      fileOf('TASK-2026-01-01-001'),
      expect('blocked', 'TASK-2026-01-01-001'),
      'moved by hand (the frontmatter still says backlog)',
    );
    assert.is(index.get('TASK-2026-01-01-001')!.moved, true);
    // the same id in two directories, the same updatedAt: the copy with the later file time is kept
    writeFileSync(
      paths.taskFile('blocked', 'TASK-2026-01-01-002'),
      taskText('TASK-2026-01-01-002', 'blocked', 'Second copy'),
    );
    utimesSync(
      paths.taskFile('backlog', 'TASK-2026-01-01-002'),
      new Date('2026-03-01T00:00:00Z'),
      new Date('2026-03-01T00:00:00Z'),
    );
    utimesSync(
      paths.taskFile('blocked', 'TASK-2026-01-01-002'),
      new Date('2026-01-01T00:00:00Z'),
      new Date('2026-01-01T00:00:00Z'),
    );
    await index.update(['TASK-2026-01-01-002']);
    assert.equal(
      [index.get('TASK-2026-01-01-002')!.status, ...fileOf('TASK-2026-01-01-002')],
      ['backlog', ...expect('backlog', 'TASK-2026-01-01-002')],
    );
    utimesSync(
      paths.taskFile('blocked', 'TASK-2026-01-01-002'),
      new Date('2026-04-01T00:00:00Z'),
      new Date('2026-04-01T00:00:00Z'),
    );
    await index.update(['TASK-2026-01-01-002']);
    assert.equal(
      [index.get('TASK-2026-01-01-002')!.title, ...fileOf('TASK-2026-01-01-002')],
      ['Second copy', ...expect('blocked', 'TASK-2026-01-01-002')],
    );
  },
);

create(
  'the background load of done and cancelled tasks pauses while the daemon is busy and still finishes when it never stops being busy',
  async () => {
    const root = tempRoot();
    await writeTaskFiles(root, 400, (i) => (i % 2 ? 'done' : 'cancelled'));
    let asked = 0;
    const index = await open(root, {
      watch: false,
      busy: () => {
        asked++;
        return true;
      },
    });
    assert.is(index.counts().done + index.counts().cancelled, 400);
    assert.is(
      [...index.summaries('done')].length + [...index.summaries('cancelled')].length,
      400,
      'every terminal task read',
    );
    assert.ok(asked > 0, 'the load asked whether the daemon was busy');
  },
);

create.run();
