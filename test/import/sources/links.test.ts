import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { svc } from '../../helpers/cli.js';
import { copyFixture, importJson, readTasks } from '../../helpers/import.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

// A source read through a symbolic link could make any file of the machine a task's body, which
// an agent then receives as its brief: only regular files inside the source tree are read.
const links = suite('import.readSourceFile links');
links.after.each(cleanRoots);

const SECRET = '---\nid: task-9\ntitle: Outside\nstatus: To Do\n---\nthe secret text\n';

links('a Backlog.md task file that is a symbolic link is skipped with a reason; the others go in', async () => {
  const root = tempRoot();
  const project = copyFixture('backlog-md');
  const outside = join(tempRoot(), 'secret.md');
  writeFileSync(outside, SECRET);
  symlinkSync(outside, join(project, 'backlog/tasks/task-9 - Outside.md'));
  const { code, report } = await importJson(root, 'backlog-md', project);
  assert.is(code, 1);
  assert.equal(
    report.problems.map((p) => p.file.replace(project, '')),
    ['/backlog/tasks/task-9 - Outside.md'],
  );
  assert.match(
    report.problems[0]!.reason,
    new RegExp(`is a symbolic link to ${outside}, not a regular file: svc reads no import file through a link`),
  );
  const bodies = Object.values(readTasks(root)).map((task) => task.body);
  assert.is(bodies.length, 4);
  assert.not.ok(bodies.some((body) => body.includes('the secret text')));
});

links('a Backlog.md tasks folder that is a link out of the project is refused for every file in it', async () => {
  const root = tempRoot();
  const project = copyFixture('backlog-md');
  const elsewhere = join(tempRoot(), 'elsewhere');
  renameSync(join(project, 'backlog/tasks'), elsewhere);
  symlinkSync(elsewhere, join(project, 'backlog/tasks'));
  const { code, report } = await importJson(root, 'backlog-md', project);
  assert.is(code, 1);
  assert.is(report.problems.length, 4);
  for (const problem of report.problems)
    assert.match(
      problem.reason,
      /is reached through .*backlog\/tasks, a symbolic link to .*: svc reads no import file through a link/,
    );
  assert.equal(readTasks(root), {});
});

links('a beads issues file and an AOF task file that are links are not read', async () => {
  const root = tempRoot();
  const outside = join(tempRoot(), 'issues.jsonl');
  writeFileSync(
    outside,
    `${JSON.stringify({ id: 'bd-1', title: 'Outside', status: 'open', description: 'the secret text' })}\n`,
  );
  const beads = join(tempRoot(), 'beads');
  mkdirSync(join(beads, '.beads'), { recursive: true });
  symlinkSync(outside, join(beads, '.beads', 'issues.jsonl'));
  const refused = await svc(root, 'import', 'beads', beads);
  assert.is(refused.code, 1);
  assert.match(
    refused.stderr,
    /issues\.jsonl is a symbolic link to .*, not a regular file: svc reads no import file through a link/,
  );
  const aof = join(tempRoot(), 'aof');
  mkdirSync(join(aof, 'tasks', 'ready'), { recursive: true });
  const task = join(tempRoot(), 'TASK-2026-01-01-001.md');
  writeFileSync(task, '---\nid: TASK-2026-01-01-001\ntitle: Outside\nstatus: ready\n---\nthe secret text\n');
  symlinkSync(task, join(aof, 'tasks', 'ready', 'TASK-2026-01-01-001.md'));
  const events = join(tempRoot(), 'events');
  mkdirSync(events);
  writeFileSync(
    join(events, '2026-01-01.jsonl'),
    `${JSON.stringify({ type: 'task.created', timestamp: '2026-01-01T00:00:00Z', taskId: 'TASK-2026-01-01-001' })}\n`,
  );
  symlinkSync(events, join(aof, 'events'));
  const { report } = await importJson(root, 'aof', aof);
  assert.equal(
    report.problems.map((p) => p.file.replace(aof, '')),
    ['/tasks/ready/TASK-2026-01-01-001.md', '/events/2026-01-01.jsonl'],
  );
  assert.match(report.problems[0]!.reason, /is a symbolic link to .*, not a regular file/);
  assert.match(report.problems[1]!.reason, /is reached through .*\/events, a symbolic link to .*; left out/);
  assert.equal(readTasks(root), {});
});

links.run();
