import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../../lib/store/events/log.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { completingAgent, writeOrg } from '../../helpers/agents.js';
import { svc } from '../../helpers/cli.js';
import { closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { copyFixture, countByStatus, importJson, readTasks, toIds } from '../../helpers/import.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

const beads = suite('import.beads');
beads.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

function show(root: string, id: string) {
  return svc(root, 'task', 'show', id, '--json').then((out) => {
    const parsed = JSON.parse(out.stdout);
    return parsed.task ?? parsed;
  });
}

beads(
  'imports .beads/issues.jsonl: statuses, priorities, dependencies rewritten, parent, a dangling dependency kept',
  async () => {
    const root = tempRoot();
    const dir = copyFixture('beads');
    const { code, report } = await importJson(root, 'beads', dir);
    assert.is(code, 0);
    const ids = toIds(report.items);
    assert.equal(Object.keys(ids), ['wid-1', 'wid-2', 'wid-3', 'wid-3.1', 'wid-4']);
    const tasks = readTasks(root);
    assert.equal(countByStatus(tasks), { done: 1, ready: 1, backlog: 2, blocked: 1 });
    const parser = await show(root, ids['wid-2']!);
    assert.is(parser.priority, 'critical');
    assert.equal(parser.dependsOn, [ids['wid-1']]);
    assert.equal(parser.routing.tags, ['core', 'parser']);
    assert.equal(parser.metadata.beads, { issue_type: 'feature', assignee: 'ana' });
    assert.is(tasks[ids['wid-2']!]!.body, 'Parse the grammar.\n\n- tokens\n- tree\n');
    const printer = await show(root, ids['wid-3']!);
    assert.equal(printer.dependsOn, [ids['wid-2'], 'wid-9']);
    assert.equal(report.items.find((item) => item.sourceId === 'wid-3')!.dangling, ['wid-9']);
    assert.is((await show(root, ids['wid-3.1']!)).parentId, ids['wid-3']);
    assert.is((await show(root, ids['wid-4']!)).priority, 'low');
    const doctor = await svc(root, 'doctor');
    assert.match(
      doctor.stdout,
      new RegExp(`^dangling dependency: ${ids['wid-3']} depends on wid-9, which is not a task`, 'm'),
    );
    assert.equal(JSON.parse((await svc(root, 'doctor', '--json')).stdout).dangling, [
      { id: ids['wid-3'], missing: ['wid-9'] },
    ]);
  },
);

beads(
  'is idempotent, updates from the source, keeps what svc changed, and reports a malformed line while the rest go in',
  async () => {
    const root = tempRoot();
    const dir = copyFixture('beads');
    const file = join(dir, '.beads', 'issues.jsonl');
    const ids = toIds((await importJson(root, 'beads', dir)).report.items);
    assert.is((await importJson(root, 'beads', join(dir, '.beads'))).report.summary.unchanged, 5);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    lines[2].description = 'Now with a spec.\n';
    lines[4].title = 'Old idea, revisited';
    writeFileSync(
      file,
      `${lines.map((line) => JSON.stringify(line)).join('\n')}\n{"id": broken\n{"id":"wid-5","title":"Later","status":"open"}\n`,
    );
    assert.is((await svc(root, 'task', 'block', ids['wid-4']!, '--reason', 'waiting on a decision')).code, 0);
    const { code, report } = await importJson(root, 'beads', dir);
    assert.is(code, 1);
    const byId = Object.fromEntries(report.items.map((item) => [item.sourceId, item.action]));
    assert.equal(byId, {
      'wid-1': 'unchanged',
      'wid-2': 'unchanged',
      'wid-3': 'update',
      'wid-3.1': 'unchanged',
      'wid-4': 'kept',
      'wid-5': 'create',
    });
    assert.match(report.problems[0]!.file, /issues\.jsonl:6$/);
    assert.match(report.problems[0]!.reason, /not a JSON line/);
    const tasks = readTasks(root);
    assert.is(tasks[ids['wid-3']!]!.body, 'Now with a spec.\n');
    assert.match(tasks[ids['wid-4']!]!.text, /title: Old idea\n/);
    assert.is(Object.keys(tasks).length, 6);
    const notBeads = await svc(root, 'import', 'beads', copyFixture('not-a-source'));
    assert.is(notBeads.code, 1);
    assert.match(notBeads.stderr, /is not a beads project: .*\.beads\/issues\.jsonl is not a file/);
  },
);

beads('imported tasks dispatch and complete through the daemon like any other', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: completingAgent('imported and done') }],
    aof: { daemon: { bootWindowMs: 200, pollIntervalMs: 200 } },
  });
  const dir = copyFixture('beads');
  appendFileSync(
    join(dir, '.beads/issues.jsonl'),
    '{"id":"wid-6","title":"Run me","description":"Go.","status":"in_progress","labels":[],"dependencies":[{"issue_id":"wid-6","depends_on_id":"wid-1","type":"blocks"}]}\n',
  );
  const ids = toIds((await importJson(root, 'beads', dir)).report.items);
  const yaml = readFileSync(join(root, 'tasks/ready', `${ids['wid-6']}.md`), 'utf8').replace(
    'routing: {}',
    'routing:\n  agent: dev',
  );
  writeFileSync(join(root, 'tasks/ready', `${ids['wid-6']}.md`), yaml);
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  await within(20_000, () => readTasks(root)[ids['wid-6']!]?.status === 'done', 'the imported task to be done');
  // The events of a change are appended after it is committed: wait for them, not only for the file.
  await within(
    15_000,
    async () => (await readEvents(root, { taskId: ids['wid-6'] })).some((event) => event.type === 'task.completed'),
    'its task.completed event',
  );
  const types = (await readEvents(root, { taskId: ids['wid-6'] })).map((event) => event.type);
  assert.ok(
    types.includes('task.imported') && types.includes('task.dispatched') && types.includes('task.completed'),
    types.join(' '),
  );
});

beads('an issue carrying a NUL in its description is stored with it escaped', async () => {
  const root = tempRoot();
  const dir = tempRoot();
  mkdirSync(join(dir, '.beads'));
  writeFileSync(
    join(dir, '.beads', 'issues.jsonl'),
    `${JSON.stringify({ id: 'nul-1', title: 'Bad\0byte', description: 'x\0y', status: 'open' })}\n`,
  );
  const { code, report } = await importJson(root, 'beads', dir);
  assert.is(code, 0);
  const task = readTasks(root)[toIds(report.items)['nul-1']!]!;
  assert.not.ok(task.text.includes('\0'), 'no NUL in the task file');
  assert.is(task.body.trimEnd(), 'x\\x00y');
  assert.is((await show(root, toIds(report.items)['nul-1']!)).title, 'Bad\\x00byte');
});

beads.run();
