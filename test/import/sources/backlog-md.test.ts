import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseFrontmatter } from '../../../lib/fs/frontmatter.js';
import { svc } from '../../helpers/cli.js';
import { copyFixture, countByStatus, importJson, readTasks, toIds } from '../../helpers/import.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const backlog = suite('import.backlog-md');
backlog.after.each(cleanRoots);

const TASK_2 = 'backlog/tasks/task-2 - Load-data.md';

backlog(
  'imports backlog/tasks/*.md with the statuses of config.yml, dependencies and parent rewritten, bodies kept',
  async () => {
    const root = tempRoot();
    const project = copyFixture('backlog-md');
    const { code, report } = await importJson(root, 'backlog-md', project);
    assert.is(code, 0);
    const ids = toIds(report.items);
    assert.equal(Object.keys(ids), ['task-1', 'task-2', 'task-3', 'task-4']);
    const tasks = readTasks(root);
    // To Do -> backlog, In Progress -> ready, Review -> backlog (by name), Done -> done
    assert.equal(countByStatus(tasks), { done: 1, ready: 1, backlog: 2 });
    const source = parseFrontmatter(readFileSync(join(project, TASK_2), 'utf8'), TASK_2);
    assert.is(tasks[ids['task-2']!]!.body, source.body);
    const loader = JSON.parse((await svc(root, 'task', 'show', ids['task-3']!, '--json')).stdout);
    const task = loader.task ?? loader;
    assert.equal(task.dependsOn, [ids['task-2'], 'task-7']);
    assert.equal(report.items.find((item) => item.sourceId === 'task-3')!.dangling, ['task-7']);
    assert.is(task.createdAt, '2026-09-03T00:00:00.000Z');
    assert.equal(task.metadata.source.system, 'backlog-md');
    assert.is(task.metadata['backlog-md'].status, 'Review');
    const docs = JSON.parse((await svc(root, 'task', 'show', ids['task-4']!, '--json')).stdout);
    assert.is((docs.task ?? docs).parentId, ids['task-2']);
    const schema = JSON.parse((await svc(root, 'task', 'show', ids['task-1']!, '--json')).stdout);
    assert.is((schema.task ?? schema).priority, 'high');
    assert.is((schema.task ?? schema).createdAt, '2026-09-01T10:30:00.000Z');
  },
);

backlog(
  '--status-map overrides the mapping by name; an unknown status is reported for its file and the rest go in',
  async () => {
    const root = tempRoot();
    const project = copyFixture('backlog-md');
    writeFileSync(
      join(project, 'backlog/tasks/task-5 - Icebox.md'),
      '---\nid: task-5\ntitle: Someday\nstatus: Icebox\n---\n',
    );
    const { code, report } = await importJson(
      root,
      'backlog-md',
      project,
      '--status-map',
      'Review=blocked, In Progress=backlog',
    );
    assert.is(code, 1);
    assert.match(report.problems[0]!.file, /task-5 - Icebox\.md$/);
    assert.match(
      report.problems[0]!.reason,
      /status "Icebox" is not one of backlog\/config\.yml's statuses \(To Do, In Progress, Review, Done\); map it with --status-map/,
    );
    assert.equal(countByStatus(readTasks(root)), { done: 1, backlog: 2, blocked: 1 });
    const bad = await svc(root, 'import', 'backlog-md', project, '--status-map', 'Review=reviewing');
    assert.is(bad.code, 1);
    assert.match(bad.stderr, /--status-map: "Review=reviewing" is not <source status>=<svc status>/);
    const notBacklog = await svc(root, 'import', 'backlog-md', copyFixture('not-a-source'));
    assert.match(notBacklog.stderr, /is not a Backlog\.md project: .*backlog\/tasks is not a directory/);
  },
);

backlog('a second import creates nothing; an edit of a task file updates it; an edit in svc is kept', async () => {
  const root = tempRoot();
  const project = copyFixture('backlog-md');
  const ids = toIds((await importJson(root, 'backlog-md', project)).report.items);
  assert.is((await importJson(root, 'backlog-md', join(project, 'backlog'))).report.summary.unchanged, 4);
  const file = join(project, TASK_2);
  writeFileSync(file, readFileSync(file, 'utf8').replace('- [ ] every row loads', '- [x] every row loads'));
  const four = join(project, 'backlog/tasks/task-4 - Write-docs.md');
  writeFileSync(four, readFileSync(four, 'utf8').replace('priority: low', 'priority: high'));
  assert.is((await svc(root, 'task', 'promote', ids['task-4']!)).code, 0);
  const { report } = await importJson(root, 'backlog-md', project);
  const byId = Object.fromEntries(report.items.map((item) => [item.sourceId, item.action]));
  assert.equal(byId, { 'task-1': 'unchanged', 'task-2': 'update', 'task-3': 'unchanged', 'task-4': 'kept' });
  const tasks = readTasks(root);
  assert.match(tasks[ids['task-2']!]!.body, /- \[x\] every row loads/);
  assert.match(tasks[ids['task-4']!]!.text, /priority: low/);
  assert.is(Object.keys(tasks).length, 4);
});

backlog.run();
