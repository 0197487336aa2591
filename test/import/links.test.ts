import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseYaml } from '../../lib/fs/frontmatter.js';
import { svc } from '../helpers/cli.js';
import { copyFixture, importJson, readTasks, toIds } from '../helpers/import.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const links = suite('import.plan links');
links.after.each(cleanRoots);

/** A beads project of the given issues (one JSON line each). */
function writeBeads(issues: Record<string, unknown>[]): string {
  const dir = join(tempRoot(), 'proj');
  mkdirSync(join(dir, '.beads'), { recursive: true });
  writeFileSync(join(dir, '.beads', 'issues.jsonl'), `${issues.map((issue) => JSON.stringify(issue)).join('\n')}\n`);
  return dir;
}

const blocks = (...ids: string[]) => ids.map((id) => ({ depends_on_id: id, type: 'blocks' }));

async function frontmatter(root: string, id: string): Promise<{ dependsOn: string[]; parentId?: string }> {
  const shown = JSON.parse((await svc(root, 'task', 'show', id, '--json')).stdout);
  return shown.task ?? shown;
}

links(
  'an AOF team keeps its members, and a project task keeps a dependency outside the import as it was (svc doctor lists it)',
  async () => {
    const root = tempRoot();
    const dir = copyFixture('aof');
    const chart = join(dir, 'org', 'org-chart.yaml');
    writeFileSync(
      chart,
      readFileSync(chart, 'utf8').replace(
        '  - id: main\n    name: Main Team\n',
        '  - id: main\n    name: Main Team\n    members: [swe-1]\n',
      ),
    );
    const task = join(dir, 'Projects', 'web-app', 'tasks', 'backlog', 'TASK-2026-11-26-001.md');
    writeFileSync(task, readFileSync(task, 'utf8').replace('dependsOn: []', 'dependsOn: [TASK-2026-02-27-042]'));
    const { report } = await importJson(root, 'aof', dir);
    const org = parseYaml(readFileSync(join(root, 'org', 'org-chart.yaml'), 'utf8'), 'org') as {
      teams: { id: string; members: string[] }[];
    };
    assert.ok(org.teams.find((team) => team.id === 'main')!.members.includes('swe-1'), JSON.stringify(org.teams));
    const item = report.items.find((entry) => entry.sourceId === 'web-app/TASK-2026-11-26-001')!;
    assert.equal(item.dangling, ['TASK-2026-02-27-042']);
    assert.equal((await frontmatter(root, item.id!)).dependsOn, ['TASK-2026-02-27-042']);
    const doctor = await svc(root, 'doctor');
    assert.match(
      doctor.stdout,
      new RegExp(`^dangling dependency: ${item.id} depends on TASK-2026-02-27-042, which is not a task`, 'm'),
    );
  },
);

links('a beads tombstone is skipped and reported, and the import exits 0', async () => {
  const root = tempRoot();
  const dir = writeBeads([
    { id: 'b-1', title: 'Live', status: 'open' },
    { id: 'b-2', title: 'Gone', status: 'tombstone' },
  ]);
  const { code, report } = await importJson(root, 'beads', dir);
  assert.is(code, 0);
  assert.equal([report.summary.create, report.summary.problems, report.problems], [1, 0, []]);
  const skipped = (report as unknown as { skipped: { file: string; reason: string }[] }).skipped;
  assert.match(skipped[0]!.file, /issues\.jsonl:2$/);
  assert.match(skipped[0]!.reason, /b-2 is deleted in beads \(tombstone\)/);
  const text = await svc(root, 'import', 'beads', dir);
  assert.match(text.stdout, /skipped +\S+issues\.jsonl:2: b-2 is deleted in beads/);
  assert.match(text.stdout, /1 skipped \(deleted at the source\)/);
});

links(
  'cycles of dependencies (a self-dependency, two tasks) and of parents are broken and reported; svc doctor finds none left',
  async () => {
    const root = tempRoot();
    const dir = writeBeads([
      { id: 'self', title: 'Waits on itself', dependencies: blocks('self') },
      { id: 'a', title: 'A', dependencies: blocks('b') },
      { id: 'b', title: 'B', dependencies: blocks('a') },
      { id: 'p', title: 'P', dependencies: [{ depends_on_id: 'q', type: 'parent-child' }] },
      { id: 'q', title: 'Q', dependencies: [{ depends_on_id: 'p', type: 'parent-child' }] },
    ]);
    const { code, report } = await importJson(root, 'beads', dir);
    assert.is(code, 0);
    const ids = toIds(report.items);
    const cycles = Object.fromEntries(
      report.items.map((item) => [item.sourceId, (item as { cycles?: string[] }).cycles ?? []]),
    );
    assert.equal(cycles.self, ['dependency cycle self -> self: its dependency on self was dropped']);
    assert.equal(cycles.b, ['dependency cycle a -> b -> a: its dependency on a was dropped']);
    assert.equal(cycles.q, ['parent cycle p -> q -> p: its parent p was dropped']);
    assert.equal([cycles.a, cycles.p], [[], []]);
    assert.equal((await frontmatter(root, ids.self!)).dependsOn, []);
    assert.equal((await frontmatter(root, ids.a!)).dependsOn, [ids.b]);
    assert.equal((await frontmatter(root, ids.b!)).dependsOn, []);
    assert.is((await frontmatter(root, ids.p!)).parentId, ids.q);
    assert.is((await frontmatter(root, ids.q!)).parentId, undefined);
    assert.is(report.summary.cycles, 3);
    assert.is((await svc(root, 'doctor')).code, 0);
    assert.is(
      (await importJson(root, 'beads', dir)).report.summary.unchanged,
      5,
      'a second run finds the source unchanged',
    );
  },
);

links(
  'an svc export with a cycle made by hand imports without it, and svc doctor finds a cycle made by hand',
  async () => {
    const root = tempRoot();
    const [a, b] = [
      (await svc(root, 'task', 'create', 'A')).stdout.split('\n')[0]!,
      (await svc(root, 'task', 'create', 'B')).stdout.split('\n')[0]!,
    ];
    assert.is((await svc(root, 'tool', 'svc_task_dep_add', JSON.stringify({ taskId: a, blockerId: b }))).code, 0);
    const file = readTasks(root)[b]!;
    const path = join(root, 'tasks', file.status, `${b}.md`);
    writeFileSync(path, readFileSync(path, 'utf8').replace('dependsOn: []', `dependsOn:\n  - ${a}`));
    const doctor = await svc(root, 'doctor');
    assert.is(doctor.code, 1);
    assert.match(
      doctor.stdout,
      new RegExp(
        `^dependency cycle: (${a} -> ${b} -> ${a}|${b} -> ${a} -> ${b}) \\(these tasks wait on each other forever\\)`,
        'm',
      ),
    );
    assert.match(doctor.stdout, /hint: remove one dependency of each cycle/);
    assert.not.match(doctor.stdout, /ok: no problems/);
    assert.equal(JSON.parse((await svc(root, 'doctor', '--json')).stdout).cycles.length, 1);
    const exported = join(tempRoot(), 'export.json');
    writeFileSync(exported, (await svc(root, 'export')).stdout);
    const other = tempRoot();
    const { code, report } = await importJson(other, 'svc', exported);
    assert.is(code, 0);
    assert.is(report.summary.cycles, 1);
    assert.is((await svc(other, 'doctor')).code, 0);
  },
);

links('source ids __proto__ and constructor are imported like any other', async () => {
  const root = tempRoot();
  const dir = writeBeads([
    { id: '__proto__', title: 'Proto' },
    { id: 'constructor', title: 'Ctor', dependencies: blocks('__proto__') },
    { id: 'x', title: 'X', status: 'constructor' },
  ]);
  const { report } = await importJson(root, 'beads', dir);
  const ids = toIds(report.items);
  assert.equal(
    report.items.map((item) => [item.sourceId, item.action]),
    [
      ['__proto__', 'create'],
      ['constructor', 'create'],
    ],
  );
  assert.equal((await frontmatter(root, ids.constructor!)).dependsOn, [ids.__proto__]);
  assert.match(report.problems[0]!.reason, /x: unknown status "constructor"/);
  const again = await importJson(root, 'beads', dir);
  assert.equal(
    again.report.items.map((item) => item.action),
    ['unchanged', 'unchanged'],
  );
});

links('a reopened GitHub issue is updated but stays done, and the report says its status was not applied', async () => {
  const root = tempRoot();
  const file = join(tempRoot(), 'issues.json');
  const issue = {
    number: 3,
    title: 'Flaky',
    body: '',
    labels: [],
    state: 'CLOSED',
    assignees: [],
    url: 'https://github.com/o/r/issues/3',
    createdAt: '2026-10-01T00:00:00Z',
  };
  writeFileSync(file, JSON.stringify([issue]));
  const id = toIds((await importJson(root, 'github', file)).report.items)['3']!;
  writeFileSync(file, JSON.stringify([{ ...issue, state: 'OPEN', title: 'Flaky again' }]));
  const { report } = await importJson(root, 'github', file);
  assert.is(report.items[0]!.action, 'update');
  assert.match(
    report.items[0]!.reason!,
    /the source's status \(backlog\) is not applied: svc moves no task from done to backlog, so it stays done/,
  );
  assert.is(readTasks(root)[id]!.status, 'done');
});

links.run();
