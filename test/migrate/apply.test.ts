import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyMigrations, readMigrationRuns } from '../../lib/migrate/apply.js';
import { planMigrations } from '../../lib/migrate/plan.js';
import { MIGRATIONS } from '../../lib/migrate/steps.js';
import { createEventLog } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const NOW = new Date('2026-11-26T12:00:00.000Z');

function world(files: Record<string, string>): string {
  const root = tempRoot();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const apply = suite('migrate.applyMigrations');
apply.after.each(cleanRoots);

apply('a file changed after the plan was made is skipped, not overwritten, and migrated by the next run', async () => {
  const root = world({ 'tasks/backlog/a.md': '---\ntitle: A\n---\n', 'tasks/backlog/b.md': '---\ntitle: B\n---\n' });
  const paths = toPaths(root);
  const plan = await planMigrations(paths);
  assert.is(plan.files.length, 2);
  writeFileSync(join(root, 'tasks/backlog/b.md'), '---\ntitle: B, edited meanwhile\n---\n');
  const run = await applyMigrations(paths, plan, { now: NOW, actor: 'test', events: createEventLog(root) });
  assert.equal(
    run.files.map((file) => file.file),
    ['tasks/backlog/a.md'],
  );
  assert.equal(run.skipped, [
    { file: 'tasks/backlog/b.md', reason: 'changed since the plan was made; run svc migrate again' },
  ]);
  assert.is(readFileSync(join(root, 'tasks/backlog/b.md'), 'utf8'), '---\ntitle: B, edited meanwhile\n---\n');
  const next = await applyMigrations(paths, await planMigrations(paths), {
    now: new Date(NOW.getTime() + 1000),
    actor: 'test',
    events: createEventLog(root),
  });
  assert.equal(
    next.files.map((file) => file.file),
    ['tasks/backlog/b.md'],
  );
  assert.match(readFileSync(join(root, 'tasks/backlog/b.md'), 'utf8'), /title: B, edited meanwhile/);
  assert.is((await readMigrationRuns(paths)).length, 2);
});

apply('an empty plan records nothing', async () => {
  const root = world({});
  const paths = toPaths(root);
  const run = await applyMigrations(paths, await planMigrations(paths), {
    now: NOW,
    actor: 'test',
    events: createEventLog(root),
  });
  assert.equal(run.files, []);
  assert.is(run.backup, null);
  assert.equal(await readMigrationRuns(paths), []);
});

const steps = suite('migrate.MIGRATIONS');

steps('are numbered from 1 without gaps, and migration 1 keeps every field a file has', () => {
  assert.equal(
    MIGRATIONS.map((step) => step.version),
    MIGRATIONS.map((_, i) => i + 1),
  );
  const data: Record<string, unknown> = {
    title: 'Kept',
    priority: 'low',
    createdAt: '2026-01-01T00:00:00Z',
    extra: { a: 1 },
  };
  const changes = MIGRATIONS[0]!.apply(data, { id: 'x-1', status: 'ready', mtime: NOW, body: '# Ignored heading\n' });
  assert.is(data.title, 'Kept');
  assert.is(data.priority, 'low');
  assert.is(data.updatedAt, '2026-01-01T00:00:00Z');
  assert.equal(data.extra, { a: 1 });
  assert.not.ok(changes.some((line) => /^(title|priority|createdAt):/.test(line)));
  assert.ok(changes.includes('status: "ready" (was missing; the directory)'));
});

apply.run();
steps.run();
