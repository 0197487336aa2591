import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../../lib/store/commit/store.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../../lib/tools/operator.js';
import { svc } from '../../helpers/cli.js';
import { call, closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, fixedClock, tempRoot } from '../../helpers/root.js';

const filters = suite('cli.task list filters');
filters.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

/** Six tasks: two old ones (2026-11-01), the rest written now; a parent with two children. */
async function seed(root: string): Promise<Record<string, string>> {
  const old = createStore({ root, clock: fixedClock('2026-11-01T10:00:00.000Z') });
  const store = createStore({ root });
  const ids: Record<string, string> = {};
  ids.parent = (
    await old.create({
      title: 'Epic: login',
      createdBy: 'test',
      project: 'web',
      routing: { team: 'core', tags: ['api', 'auth'] },
    })
  ).task.id;
  ids.oldChild = (
    await old.create({
      title: 'Old child',
      body: 'Mentions the Password reset flow.',
      createdBy: 'test',
      project: 'web',
      parentId: ids.parent,
    })
  ).task.id;
  ids.child = (
    await store.create({
      title: 'New child',
      createdBy: 'test',
      project: 'web',
      priority: 'high',
      parentId: ids.parent,
      routing: { team: 'core', tags: ['api'] },
    })
  ).task.id;
  ids.ops = (
    await store.create({
      title: 'Rotate keys',
      body: 'password vault',
      createdBy: 'test',
      project: 'ops',
      priority: 'high',
      routing: { team: 'infra', tags: ['api', 'auth'] },
    })
  ).task.id;
  ids.plain = (await store.create({ title: 'Plain', createdBy: 'test' })).task.id;
  ids.grandchild = (
    await store.create({ title: 'Grandchild', createdBy: 'test', project: 'web', parentId: ids.child, status: 'ready' })
  ).task.id;
  return ids;
}

const CASES: [string, string[], (ids: Record<string, string>) => string[]][] = [
  ['--tag', ['--tag', 'api'], (i) => [i.parent!, i.child!, i.ops!]],
  ['--tag a,b (every tag)', ['--tag', 'api,auth'], (i) => [i.parent!, i.ops!]],
  ['--project', ['--project', 'web'], (i) => [i.parent!, i.oldChild!, i.child!, i.grandchild!]],
  ['--team', ['--team', 'core'], (i) => [i.parent!, i.child!]],
  ['--priority', ['--priority', 'high'], (i) => [i.child!, i.ops!]],
  ['--parent (a date and sequence)', ['--parent', '2026-11-01-001'], (i) => [i.oldChild!, i.child!]],
  ['--since a duration', ['--since', '1h'], (i) => [i.child!, i.ops!, i.plain!, i.grandchild!]],
  ['--since a date', ['--since', '2026-11-02'], (i) => [i.child!, i.ops!, i.plain!, i.grandchild!]],
  ['--text in a body, case-insensitive', ['--text', 'PASSWORD'], (i) => [i.oldChild!, i.ops!]],
  ['--text, every word in the title or body', ['--text', 'password vault'], (i) => [i.ops!]],
  ['--text in a title', ['--text', 'child'], (i) => [i.oldChild!, i.child!, i.grandchild!]],
  ['combined with AND', ['--project', 'web', '--since', '1h', '--status', 'backlog'], (i) => [i.child!]],
  ['combined with --text', ['--tag', 'auth', '--text', 'password'], (i) => [i.ops!]],
  ['--parent (a bare sequence with a dash)', ['--parent', '-004'], () => []],
  [
    '--status, a comma list',
    ['--status', 'ready,backlog', '--project', 'web'],
    (i) => [i.parent!, i.oldChild!, i.child!, i.grandchild!],
  ],
  ['--status, a comma list of one status', ['--status', 'ready,', '--project', 'web'], (i) => [i.grandchild!]],
];

async function listIds(root: string, argv: string[]): Promise<string[]> {
  const out = await svc(root, 'task', 'list', ...argv, '--json');
  assert.is(out.code, 0, `${argv.join(' ')}: ${out.stderr}`);
  return (JSON.parse(out.stdout) as { id: string }[]).map((row) => row.id);
}

filters('each filter, and filters combined, give the same tasks from the files and from a running daemon', async () => {
  const root = tempRoot();
  const ids = await seed(root);
  const fromFiles: string[][] = [];
  for (const [what, argv, expected] of CASES) {
    const got = await listIds(root, argv);
    assert.equal(got, expected(ids), `from the files: ${what}`);
    fromFiles.push(got);
  }
  const allFromFiles = (await svc(root, 'task', 'list', '--json')).stdout;
  await startTestDaemon(root, { schedule: false, tools: [...TOOLS, ...OPERATOR_TOOLS] });
  for (const [i, [what, argv]] of CASES.entries())
    assert.equal(await listIds(root, argv), fromFiles[i], `from the daemon: ${what}`);
  assert.equal(
    JSON.parse((await svc(root, 'task', 'list', '--json')).stdout),
    JSON.parse(allFromFiles),
    'the same rows, every field',
  );
  const served = await call(root, 'GET', '/v1/tasks?text=vault');
  assert.equal(
    (served.body as { tasks: { id: string }[] }).tasks.map((t) => t.id),
    [ids.ops],
  );
});

filters('bad filters are refused with what was expected, with and without a daemon', async () => {
  const root = tempRoot();
  await seed(root);
  for (const daemon of [false, true]) {
    if (daemon) await startTestDaemon(root, { schedule: false, tools: [...TOOLS, ...OPERATOR_TOOLS] });
    const priority = await svc(root, 'task', 'list', '--priority', 'urgnet');
    assert.equal([priority.code, /Unknown priority "urgnet"/.test(priority.stderr)], [2, true], priority.stderr);
    const since = await svc(root, 'task', 'list', '--since', 'yesterday');
    assert.match(since.stderr, /--since must be a duration back from now or a date \(found "yesterday"\)/);
    assert.match(since.stderr, /hint: Pass a duration such as 30m/);
    const parent = await svc(root, 'task', 'list', '--parent', '999', '--json');
    assert.equal([parent.code, JSON.parse(parent.stderr).error.code], [1, 'not_found']);
  }
  const route = await call(root, 'GET', '/v1/tasks?since=soon');
  assert.is(route.status, 400);
});

filters('task tree shows the subtasks recursively with their status; task show lists the children', async () => {
  const root = tempRoot();
  const ids = await seed(root);
  const tree = await svc(root, 'task', 'tree', '2026-11-01-001');
  assert.is(tree.code, 0, tree.stderr);
  assert.is(
    tree.stdout,
    [
      `${ids.parent}  backlog  Epic: login`,
      `├─ ${ids.oldChild}  backlog  Old child`,
      `└─ ${ids.child}  backlog  New child`,
      `   └─ ${ids.grandchild}  ready  Grandchild`,
      '',
    ].join('\n'),
  );
  await startTestDaemon(root, { schedule: false, tools: [...TOOLS, ...OPERATOR_TOOLS] });
  const json = JSON.parse((await svc(root, 'task', 'tree', ids.child!, '--json')).stdout);
  assert.equal(json, {
    id: ids.child,
    title: 'New child',
    status: 'backlog',
    children: [{ id: ids.grandchild, title: 'Grandchild', status: 'ready', children: [] }],
  });
  assert.match((await svc(root, 'task', 'tree', '003')).stdout, /Plain\n\(no subtasks\)\n$/);
  const show = await svc(root, 'task', 'show', ids.parent!);
  assert.match(
    show.stdout,
    new RegExp(`\nfile: .+\nchildren:\n  ${ids.oldChild}  backlog  Old child\n  ${ids.child}  backlog  New child\n`),
  );
  assert.equal(
    JSON.parse((await svc(root, 'task', 'show', ids.parent!, '--json')).stdout).children.map(
      (c: { id: string }) => c.id,
    ),
    [ids.oldChild, ids.child],
  );
  const missing = await svc(root, 'task', 'tree', '999');
  assert.equal([missing.code, /No task has the sequence number "999"/.test(missing.stderr)], [1, true]);
});

filters.run();
