import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyReconcile } from '../../../lib/store/changes/reconcile-apply.js';
import { planReconcile } from '../../../lib/store/changes/reconcile.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { svc } from '../../helpers/cli.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';
import { listFiles, setup } from './reconcile-fixture.js';

const plan = suite('store.planReconcile');
plan.after.each(cleanRoots);

plan('plans nothing for a healthy tree, and creates a missing tree', async () => {
  const { store } = await setup();
  await store.create({ title: 'Fine', createdBy: 'test' });
  assert.equal((await planReconcile(store.paths, new Date())).actions, []);
  const bare = createStore({ root: tempRoot() });
  const fresh = await planReconcile(bare.paths, new Date());
  assert.equal(
    fresh.actions.map((action) => action.line),
    [
      'create tasks/backlog/ (missing status directory)',
      'create tasks/ready/ (missing status directory)',
      'create tasks/in-progress/ (missing status directory)',
      'create tasks/blocked/ (missing status directory)',
      'create tasks/done/ (missing status directory)',
      'create tasks/deadletter/ (missing status directory)',
      'create tasks/cancelled/ (missing status directory)',
    ],
  );
  await applyReconcile(bare.paths, fresh, { actor: 'test' });
  assert.equal((await planReconcile(bare.paths, new Date())).actions, []);
});

plan('reads only: planning a broken tree changes no file', async () => {
  const { root, store } = await setup();
  const a = await store.create({ title: 'Moved', createdBy: 'test' });
  renameSync(a.path, join(root, 'tasks/done', `${a.task.id}.md`));
  writeFileSync(`${a.path}.123`, 'partial');
  const before = listFiles(root);
  const { actions } = await planReconcile(store.paths, new Date());
  assert.equal(
    actions.map((action) => action.kind),
    ['temporary', 'heal'],
  );
  assert.equal(listFiles(root), before);
});

plan(
  'reports stray .md files outside the status directories and badly named ones inside; tasks/archive/ is not looked into',
  async () => {
    const { root, store } = await setup();
    mkdirSync(join(root, 'tasks/attic/2025'), { recursive: true });
    writeFileSync(join(root, 'tasks/attic/2025/old.md'), '# old\n');
    mkdirSync(join(root, 'tasks/archive/2025-10'), { recursive: true });
    writeFileSync(join(root, 'tasks/archive/2025-10/TASK-2025-10-01-001.md'), '# archived, not read\n');
    writeFileSync(join(root, 'tasks/README.md'), '# readme\n');
    mkdirSync(join(root, 'tasks/ready/sub'));
    writeFileSync(join(root, 'tasks/ready/sub/nested.md'), '# nested\n');
    writeFileSync(join(root, 'tasks/ready/my notes.md'), '# notes\n');
    writeFileSync(join(root, 'tasks/ready/notes.txt'), 'not markdown, not ours\n');
    const { actions } = await planReconcile(store.paths, new Date());
    assert.equal(
      actions.map((action) => [action.kind, action.line.split(':')[0]]),
      [
        ['invalid', 'invalid tasks/ready/my notes.md'],
        ['stray', 'stray tasks/README.md'],
        ['stray', 'stray tasks/attic/2025/old.md'],
        ['stray', 'stray tasks/ready/sub/nested.md'],
      ],
    );
  },
);

const doctor = suite('cli.doctor');
doctor.after.each(cleanRoots);

doctor('prints one line per problem and a summary, exits 1, and 0 once fixed', async () => {
  const { root, store } = await setup();
  const a = await store.create({ title: 'A', createdBy: 'test' });
  renameSync(a.path, join(root, 'tasks/ready', `${a.task.id}.md`));
  writeFileSync(join(root, 'tasks/ready', `${a.task.id}.md.77`), 'x');
  const plan = await svc(root, 'doctor');
  assert.is(plan.code, 1);
  assert.equal(plan.stdout.split('\n').slice(0, 3), [
    `remove temporary file tasks/ready/${a.task.id}.md.77`,
    `heal ${a.task.id}: frontmatter says backlog, directory says ready (tasks/ready/${a.task.id}.md)`,
    '2 problems: 1 temporary file, 1 heal',
  ]);
  const fix = await svc(root, 'doctor', '--fix');
  assert.is(fix.code, 0);
  assert.match(fix.stdout, /fixed 2 problems: 1 temporary file, 1 heal\n$/);
  const after = await svc(root, 'doctor');
  assert.equal([after.code, after.stdout], [0, 'ok: no problems\n']);
});

doctor('--json prints the plan and the result as objects', async () => {
  const { root, store } = await setup();
  const a = await store.create({ title: 'A', createdBy: 'test' });
  renameSync(a.path, join(root, 'tasks/ready', `${a.task.id}.md`));
  writeFileSync(join(root, 'tasks/ready/TASK-bad.md'), 'no frontmatter\n');
  const plan = JSON.parse((await svc(root, 'doctor', '--json')).stdout) as {
    ok: boolean;
    problems: number;
    counts: object;
    actions: { kind: string }[];
  };
  assert.equal([plan.ok, plan.problems, plan.counts], [false, 2, { heal: 1, invalid: 1 }]);
  const fixed = await svc(root, 'doctor', '--fix', '--json');
  assert.is(fixed.code, 1, 'an invalid file remains');
  const result = JSON.parse(fixed.stdout) as {
    ok: boolean;
    fixed: number;
    remaining: { kind: string; path: string }[];
  };
  assert.equal([result.ok, result.fixed, result.remaining.map((action) => action.kind)], [false, 1, ['invalid']]);
});

plan.run();
doctor.run();
