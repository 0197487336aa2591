import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { svc } from '../helpers/cli.js';
import { taskText } from '../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const HAND = '---\ntitle: Written by hand\npriority: high\n---\n\n# A heading\n\nSome notes.\n';
const BARE = '---\nrouting:\n  agent: dev\n---\n\n## Fix the \x1b[31mthing\n';
const NEWER =
  '---\nschemaVersion: 2\nid: TASK-2026-01-01-009\ntitle: From the future\nstatus: ready\nshiny: true\n---\n\nbody\n';

function world(): string {
  const root = tempRoot();
  for (const status of ['backlog', 'ready', 'done']) mkdirSync(join(root, 'tasks', status), { recursive: true });
  writeFileSync(join(root, 'tasks/backlog/hand-1.md'), HAND);
  writeFileSync(join(root, 'tasks/ready/bare-2.md'), BARE);
  writeFileSync(join(root, 'tasks/ready/TASK-2026-01-01-009.md'), NEWER);
  writeFileSync(
    join(root, 'tasks/done/TASK-2026-01-01-001.md'),
    taskText('TASK-2026-01-01-001', 'done', 'Already fine'),
  );
  return root;
}

const migrate = suite('cli.migrate');
migrate.after.each(cleanRoots);

migrate(
  'a file without schemaVersion is reported as such until migrated, and one from a newer svc says to upgrade',
  async () => {
    const root = world();
    const list = await svc(root, 'doctor', '--json');
    const invalid = JSON.stringify(JSON.parse(list.stdout));
    assert.match(invalid, /schemaVersion is missing \(this svc reads version 1\); run `svc migrate` to add it/);
    assert.match(invalid, /schemaVersion 2 is newer than this svc understands \(it reads version 1\); upgrade svc/);
  },
);

migrate('--dry-run lists each change per file and writes nothing', async () => {
  const root = world();
  const out = await svc(root, 'migrate', '--dry-run');
  assert.is(out.code, 1, out.stderr); // the newer file needs attention
  assert.match(
    out.stdout,
    /Would migrate tasks\/backlog\/hand-1\.md \(no schemaVersion -> 1\):\n  schemaVersion: 1\n  id: "hand-1" \(was missing; the file name\)\n  project: "default"/,
  );
  assert.match(out.stdout, /status: "backlog" \(was missing; the directory\)/);
  assert.match(out.stdout, /title: "Fix the \\u001b\[31mthing" \(was missing; the first heading of the body\)/);
  assert.match(
    out.stdout,
    /Left untouched tasks\/ready\/TASK-2026-01-01-009\.md: written by a newer svc \(schemaVersion 2; this svc reads 1\)\. Upgrade svc/,
  );
  assert.not.match(out.stdout, /TASK-2026-01-01-001/);
  assert.is(readFileSync(join(root, 'tasks/backlog/hand-1.md'), 'utf8'), HAND);
  assert.not.ok(existsSync(join(root, 'data/migrations.json')));
});

migrate('fixes the files with backups, records the run, logs events, and is a no-op the second time', async () => {
  const root = world();
  const out = await svc(root, 'migrate', '--json');
  assert.is(out.code, 1);
  const result = JSON.parse(out.stdout);
  assert.equal(
    result.files.map((f: { file: string }) => f.file),
    ['tasks/backlog/hand-1.md', 'tasks/ready/bare-2.md'],
  );
  assert.equal(result.newer, [{ file: 'tasks/ready/TASK-2026-01-01-009.md', version: 2 }]);
  const hand = await svc(root, 'task', 'show', 'hand-1', '--json');
  assert.is(hand.code, 0, hand.stderr);
  const task = JSON.parse(hand.stdout);
  assert.is(task.task?.title ?? task.title, 'Written by hand');
  assert.is(task.task?.priority ?? task.priority, 'high');
  assert.match(
    readFileSync(join(root, 'tasks/backlog/hand-1.md'), 'utf8'),
    /^---\nschemaVersion: 1\nid: hand-1\nproject: default\ntitle: Written by hand\nstatus: backlog\npriority: high\n[\s\S]*\n---\n\n# A heading\n\nSome notes\.\n$/,
  );
  const backup = join(root, result.backup);
  assert.is(readFileSync(join(backup, 'tasks/backlog/hand-1.md'), 'utf8'), HAND);
  assert.is(readFileSync(join(backup, 'tasks/ready/bare-2.md'), 'utf8'), BARE);
  assert.is(readFileSync(join(root, 'tasks/ready/TASK-2026-01-01-009.md'), 'utf8'), NEWER);
  const record = JSON.parse(readFileSync(join(root, 'data/migrations.json'), 'utf8'));
  assert.is(record.runs.length, 1);
  assert.equal(record.runs[0].steps, [
    { version: 1, name: 'schemaVersion 1 and the defaults of missing required fields' },
  ]);
  assert.is((await readEvents(root, { type: 'task.migrated' })).length, 2);

  const again = await svc(root, 'migrate');
  assert.match(again.stdout, /^Left untouched tasks\/ready\/TASK-2026-01-01-009\.md/m);
  assert.not.match(again.stdout, /Migrated/);
  assert.is(JSON.parse(readFileSync(join(root, 'data/migrations.json'), 'utf8')).runs.length, 1);
  assert.is(readdirSync(join(root, 'data/backups')).length, 1);
});

migrate('a file that is still invalid after the defaults is reported and left as it was', async () => {
  const root = world();
  const bad = '---\ntitle: Bad\npriority: urgent\n---\n';
  writeFileSync(join(root, 'tasks/backlog/bad-3.md'), bad);
  const out = await svc(root, 'migrate');
  assert.match(out.stdout, /Cannot migrate tasks\/backlog\/bad-3\.md: still invalid after the migration: .*priority/);
  assert.is(readFileSync(join(root, 'tasks/backlog/bad-3.md'), 'utf8'), bad);
  assert.ok(existsSync(join(root, 'tasks/backlog/hand-1.md')));
});

migrate(
  'a task file with no frontmatter at all is migrated: id from the file name, title from its first heading, the text kept as the body',
  async () => {
    const root = tempRoot();
    mkdirSync(join(root, 'tasks', 'backlog'), { recursive: true });
    const text = '# Write the onboarding guide\n\nFor new people.\n';
    writeFileSync(join(root, 'tasks/backlog/guide.md'), text);
    const out = await svc(root, 'migrate');
    assert.is(out.code, 0, out.stdout + out.stderr);
    assert.match(
      out.stdout,
      /Migrated tasks\/backlog\/guide\.md \(no schemaVersion -> 1\):\n  schemaVersion: 1\n  id: "guide" \(was missing; the file name\)/,
    );
    assert.match(out.stdout, /title: "Write the onboarding guide" \(was missing; the first heading of the body\)/);
    const shown = JSON.parse((await svc(root, 'task', 'show', 'guide', '--json')).stdout);
    assert.is((shown.task ?? shown).title, 'Write the onboarding guide');
    assert.match(
      readFileSync(join(root, 'tasks/backlog/guide.md'), 'utf8'),
      /\n---\n\n# Write the onboarding guide\n\nFor new people\.\n$/,
    );
  },
);

migrate(
  'a file it cannot migrate (malformed YAML, a schemaVersion that is no number) is listed and the exit code is 1',
  async () => {
    const root = tempRoot();
    mkdirSync(join(root, 'tasks', 'ready'), { recursive: true });
    writeFileSync(join(root, 'tasks/ready/broken.md'), '---\ntitle: [unclosed\n---\n');
    writeFileSync(join(root, 'tasks/ready/odd.md'), '---\nschemaVersion: one\n---\n');
    const out = await svc(root, 'migrate', '--json');
    assert.is(out.code, 1);
    const failed = Object.fromEntries(
      (JSON.parse(out.stdout).failed as { file: string; reason: string }[]).map(({ file, reason }) => [file, reason]),
    );
    assert.equal(Object.keys(failed).sort(), ['tasks/ready/broken.md', 'tasks/ready/odd.md']);
    assert.match(failed['tasks/ready/broken.md']!, /^cannot be read as a task file: malformed YAML frontmatter/);
    assert.match(failed['tasks/ready/odd.md']!, /schemaVersion "one" is not a version number/);
    const text = await svc(root, 'migrate');
    assert.match(text.stdout, /^Cannot migrate tasks\/ready\/broken\.md: cannot be read as a task file/m);
  },
);

migrate.run();
