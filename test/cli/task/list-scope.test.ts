import { renameSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { svc } from '../../helpers/cli.js';
import { call, closeDaemons, startTestDaemon, writeTaskFiles } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

/** 2 backlog, 2 ready, 3 done, 1 cancelled: ids TASK-2026-01-01-001..008. */
async function writeTree(root: string): Promise<string[]> {
  return writeTaskFiles(root, 8, (i) => (i <= 2 ? 'backlog' : i <= 4 ? 'ready' : i <= 7 ? 'done' : 'cancelled'));
}

const ids = (stdout: string) =>
  (JSON.parse(stdout) as { id: string; status: string }[]).map((row) => `${row.id.slice(-3)} ${row.status}`);

const scope = suite('cli.task list scope');
scope.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

scope(
  'without a daemon lists the tasks not done or cancelled and counts those by name; --all and --status list them',
  async () => {
    const root = tempRoot();
    await writeTree(root);
    const list = await svc(root, 'task', 'list');
    assert.is(list.code, 0, list.stderr);
    assert.equal(
      list.stdout
        .trim()
        .split('\n')
        .slice(1, -1)
        .map((line) => line.split(/\s+/).slice(0, 2).join(' ')),
      [
        'TASK-2026-01-01-001 backlog',
        'TASK-2026-01-01-002 backlog',
        'TASK-2026-01-01-003 ready',
        'TASK-2026-01-01-004 ready',
      ],
    );
    assert.match(
      list.stdout,
      /\n\(not listed: 3 done and 1 cancelled; --all lists every status, --status done one\)\n$/,
    );
    assert.equal(ids((await svc(root, 'task', 'list', '--all', '--json')).stdout), [
      '001 backlog',
      '002 backlog',
      '003 ready',
      '004 ready',
      '005 done',
      '006 done',
      '007 done',
      '008 cancelled',
    ]);
    assert.equal(ids((await svc(root, 'task', 'list', '--status', 'done', '--json')).stdout), [
      '005 done',
      '006 done',
      '007 done',
    ]);
    const json = await svc(root, 'task', 'list', '--json');
    assert.equal(ids(json.stdout), ['001 backlog', '002 backlog', '003 ready', '004 ready']);
    assert.match(json.stderr, /not listed: 3 done and 1 cancelled/);
  },
);

scope(
  'a task moved by hand into done/ leaves the listing and is counted as done, listed by --status done',
  async () => {
    const root = tempRoot();
    await writeTree(root);
    await svc(root, 'task', 'list'); // fills the row cache with the task in ready/
    const paths = toPaths(root);
    renameSync(paths.taskFile('ready', 'TASK-2026-01-01-003'), paths.taskFile('done', 'TASK-2026-01-01-003'));
    const list = await svc(root, 'task', 'list', '--json');
    assert.equal(ids(list.stdout), ['001 backlog', '002 backlog', '004 ready']);
    assert.match(list.stderr, /not listed: 4 done and 1 cancelled/);
    assert.equal(ids((await svc(root, 'task', 'list', '--status', 'done', '--json')).stdout), [
      '003 done',
      '005 done',
      '006 done',
      '007 done',
    ]);
    const board = JSON.parse((await svc(root, 'board', '--json')).stdout) as {
      columns: { status: string; count: number }[];
    };
    assert.equal(
      board.columns.map((c) => `${c.status} ${c.count}`),
      ['backlog 2', 'ready 1', 'in-progress 0', 'done 4'],
    );
  },
);

scope('with a daemon the listing, its note and --all are the same as without', async () => {
  const root = tempRoot();
  await writeTree(root);
  const without = await Promise.all(
    [['task', 'list'], ['task', 'list', '--all'], ['task', 'list', '--status', 'done'], ['board']].map((argv) =>
      svc(root, ...argv),
    ),
  );
  await startTestDaemon(root, { schedule: false });
  await within(15_000, async () => (await call(root, 'GET', '/status')).body !== null, 'the daemon answering');
  const withDaemon = await Promise.all(
    [['task', 'list'], ['task', 'list', '--all'], ['task', 'list', '--status', 'done'], ['board']].map((argv) =>
      svc(root, ...argv),
    ),
  );
  assert.equal(
    withDaemon.map((out) => out.stdout),
    without.map((out) => out.stdout),
  );
  const some = await call(root, 'GET', '/v1/tasks?statuses=backlog,ready');
  const body = some.body as { tasks: { status: string }[]; counts: Record<string, number> };
  assert.equal([...new Set(body.tasks.map((t) => t.status))], ['backlog', 'ready']);
  assert.is(body.counts.done, 3);
  const bad = await call(root, 'GET', '/v1/tasks?statuses=backlog,doing');
  assert.is(bad.status, 400);
  assert.match(JSON.stringify(bad.body), /Unknown status \\"doing\\"/);
});

scope('with a filter the note says done and cancelled tasks were not searched', async () => {
  const root = tempRoot();
  await writeTree(root);
  const out = await svc(root, 'task', 'list', '--text', 'task');
  assert.match(out.stdout, /\(done and cancelled tasks not searched: --all searches every status\)\n$/);
  assert.is((await svc(root, 'task', 'list', '--text', 'task', '--all', '--json')).stdout.split('"id"').length - 1, 8);
});

scope(
  'the board never reads cancelled/: a file there that does not parse is not reported by it, but by --all',
  async () => {
    const root = tempRoot();
    await writeTree(root);
    writeFileSync(toPaths(root).taskFile('cancelled', 'TASK-2026-01-01-099'), 'not a task\n');
    const board = await svc(root, 'board');
    assert.is(board.code, 0);
    assert.not.match(board.stdout + board.stderr, /TASK-2026-01-01-099/);
    assert.match((await svc(root, 'task', 'list', '--all')).stderr, /TASK-2026-01-01-099/);
  },
);

scope.run();
