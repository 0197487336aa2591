import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../../lib/store/events/log.js';
import { svc } from '../../helpers/cli.js';
import { copyFixture, countByStatus, importJson, readTasks, toIds } from '../../helpers/import.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const github = suite('import.github');
github.after.each(cleanRoots);

github(
  'imports the issues of gh issue list: open to backlog, closed to done, labels to tags, bodies byte for byte',
  async () => {
    const root = tempRoot();
    const file = join(copyFixture('github'), 'issues.json');
    const issues = JSON.parse(readFileSync(file, 'utf8')) as { number: number; body: string }[];
    const dry = await svc(root, 'import', 'github', file, '--dry-run');
    assert.match(dry.stdout, /create +12 -> \(new id\)/);
    assert.match(dry.stdout, /Summary: 3 to create/);
    assert.equal(Object.keys(readTasks(root)), []);
    const { code, report } = await importJson(root, 'github', file);
    assert.is(code, 0);
    assert.is(report.summary.create, 3);
    const tasks = readTasks(root);
    assert.equal(countByStatus(tasks), { backlog: 2, done: 1 });
    const ids = toIds(report.items);
    assert.is(tasks[ids['12']!]!.body, issues[0]!.body);
    assert.ok(issues[0]!.body.includes('\r\n'));
    assert.is(tasks[ids['7']!]!.status, 'done');
    const shown = JSON.parse((await svc(root, 'task', 'show', ids['12']!, '--json')).stdout);
    const task = shown.task ?? shown;
    assert.equal(task.routing.tags, ['bug', 'ui']);
    assert.is(task.createdAt, '2026-10-01T09:15:00.000Z');
    assert.equal(
      { ...task.metadata.source, importedAt: undefined },
      { system: 'github', id: '12', url: 'https://github.com/example/widgets/issues/12', importedAt: undefined },
    );
    assert.equal(task.metadata.github.assignees, ['octocat']);
    const events = await readEvents(root, { type: 'task.imported' });
    assert.equal(events.map((event) => event.payload.sourceId).sort(), ['12', '15', '7']);
    assert.equal(JSON.parse(readFileSync(join(root, 'data/imports/github.json'), 'utf8')).entries['12'].id, ids['12']);
  },
);

github(
  'a second import creates nothing; a change at the source updates the task; a change in svc is kept',
  async () => {
    const root = tempRoot();
    const file = join(copyFixture('github'), 'issues.json');
    const ids = toIds((await importJson(root, 'github', file)).report.items);
    const again = await importJson(root, 'github', file);
    assert.equal(again.report.summary, {
      create: 0,
      update: 0,
      unchanged: 3,
      kept: 0,
      missing: 0,
      invalid: 0,
      problems: 0,
      skipped: 0,
      cycles: 0,
    });
    assert.is(Object.keys(readTasks(root)).length, 3);
    const issues = JSON.parse(readFileSync(file, 'utf8'));
    issues[0].title = 'Board flickers on resize (Firefox only)';
    issues[2].body = 'Changed upstream.';
    writeFileSync(file, JSON.stringify(issues));
    assert.is((await svc(root, 'task', 'promote', ids['15']!)).code, 0);
    const third = await importJson(root, 'github', file);
    const byId = Object.fromEntries(third.report.items.map((item) => [item.sourceId, item.action]));
    assert.equal(byId, { 12: 'update', 7: 'unchanged', 15: 'kept' });
    const tasks = readTasks(root);
    assert.match(tasks[ids['12']!]!.text, /title: Board flickers on resize \(Firefox only\)/);
    assert.is(tasks[ids['15']!]!.body, 'Blocked by #12 upstream.\n');
    assert.is(tasks[ids['15']!]!.status, 'ready');
    const text = await svc(root, 'import', 'github', file);
    assert.match(text.stdout, /kept +15 -> \S+ \(kept: changed in svc\)/);
  },
);

github(
  'a file that is not gh output is refused; a bad entry among good ones is reported and the rest go in',
  async () => {
    const root = tempRoot();
    const dir = copyFixture('github');
    writeFileSync(join(dir, 'object.json'), '{"issues": []}');
    const wrong = await svc(root, 'import', 'github', join(dir, 'object.json'));
    assert.is(wrong.code, 1);
    assert.match(wrong.stderr, /holds an object, not a list of issues; expected a JSON file written by `gh issue list/);
    const unknown = await svc(root, 'import', 'gihub', dir);
    assert.match(unknown.stderr, /Unknown import source "gihub"\. Did you mean `github`\?/);
    const dirArg = await svc(root, 'import', 'github', dir);
    assert.match(dirArg.stderr, /is not a file/);
    const issues = JSON.parse(readFileSync(join(dir, 'issues.json'), 'utf8'));
    issues.splice(
      1,
      0,
      { number: 'x', title: 'no number' },
      { number: 99, title: 'weird', state: 'MERGED' },
      { number: 100, title: 'x'.repeat(600), state: 'OPEN' },
    );
    writeFileSync(join(dir, 'issues.json'), JSON.stringify(issues));
    const { code, report } = await importJson(root, 'github', join(dir, 'issues.json'));
    assert.is(code, 1);
    assert.is(report.summary.create, 3);
    assert.match(
      report.problems.map((p) => `${p.file}: ${p.reason}`).join('\n'),
      /issues\.json\[1\]: expected an issue with a whole `number`[\s\S]*issues\.json\[2\]: state is "MERGED"/,
    );
    const long = report.items.find((item) => item.sourceId === '100')!;
    assert.is(long.action, 'invalid');
    assert.match(long.reason!, /title/);
    assert.is(Object.keys(readTasks(root)).length, 3);
  },
);

github(
  'an issue carrying a NUL in its title and body is stored with it escaped; importing it again finds it unchanged',
  async () => {
    const root = tempRoot();
    const file = join(tempRoot(), 'issues.json');
    const issue = {
      number: 3,
      title: 'Crash on \0 input',
      body: 'Paste:\n\nab\0cd\n',
      labels: [],
      state: 'OPEN',
      assignees: [],
      url: 'https://github.com/example/widgets/issues/3',
      createdAt: '2026-10-01T09:15:00Z',
    };
    writeFileSync(file, JSON.stringify([issue]));
    const { code, report } = await importJson(root, 'github', file);
    assert.is(code, 0);
    const task = readTasks(root)[toIds(report.items)['3']!]!;
    assert.not.ok(task.text.includes('\0'), 'no NUL in the task file');
    assert.is(task.body, 'Paste:\n\nab\\x00cd\n');
    const shown = JSON.parse((await svc(root, 'task', 'show', toIds(report.items)['3']!, '--json')).stdout);
    assert.is((shown.task ?? shown).title, 'Crash on \\x00 input');
    assert.is((await importJson(root, 'github', file)).report.summary.unchanged, 1);
  },
);

github.run();
