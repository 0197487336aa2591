import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../../lib/store/events/log.js';
import { svc } from '../../helpers/cli.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const firstLine = (text: string) => text.split('\n')[0]!;

const create = suite('cli.task create');
create.after.each(cleanRoots);

create('prints the new id on its first line and writes the file in backlog', async () => {
  const root = tempRoot();
  const out = await svc(
    root,
    'task',
    'create',
    'Fix',
    'the',
    'bug',
    '--agent',
    'dev',
    '--priority',
    'high',
    '--tags',
    'ts,db',
    '--body',
    'Details here',
  );
  assert.is(out.code, 0, out.stderr);
  const id = firstLine(out.stdout);
  assert.match(id, /^TASK-\d{4}-\d{2}-\d{2}-001$/);
  const text = readFileSync(`${root}/tasks/backlog/${id}.md`, 'utf8');
  assert.match(text, /title: Fix the bug/);
  assert.match(text, /priority: high/);
  assert.match(text, /routing:\n  agent: dev\n  tags:\n    - ts\n    - db/);
  assert.match(text, /\nDetails here\n$/);
});

create('refuses an unknown priority, unknown dependencies and a huge title, creating nothing', async () => {
  const root = tempRoot();
  const bad = await svc(root, 'task', 'create', 'X', '--priority', 'urgent');
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /Unknown priority "urgent"/);
  assert.match(bad.stderr, /hint: Use one of: low, normal, high, critical/);
  const deps = await svc(root, 'task', 'create', 'X', '--depends-on', 'TASK-1999-01-01-001');
  assert.is(deps.code, 1);
  assert.match(deps.stderr, /not a task/);
  const huge = await svc(root, 'task', 'create', 'x'.repeat(501));
  assert.is(huge.code, 1);
  assert.match(huge.stderr, /limit is 500/);
  const list = await svc(root, 'task', 'list', '--json');
  assert.equal(JSON.parse(list.stdout), []);
});

create('exits 2 on usage errors', async () => {
  const root = tempRoot();
  assert.is((await svc(root, 'task', 'create')).code, 2);
  assert.is((await svc(root, 'task')).code, 2);
  assert.is((await svc(root, 'frobnicate')).code, 2);
});

create('a bare svc prints the help (exit 0); a title after -- may start with a dash', async () => {
  const root = tempRoot();
  const bare = await svc(root);
  assert.is(bare.code, 0, bare.stderr);
  assert.is(bare.stdout, (await svc(root, '--help')).stdout);
  assert.match(bare.stdout, /Usage: svc <command>/);
  const dashed = await svc(root, 'task', 'create', '--priority', 'high', '--', '-x', '--not-an-option');
  assert.is(dashed.code, 0, dashed.stderr);
  assert.match(
    readFileSync(`${root}/tasks/backlog/${firstLine(dashed.stdout)}.md`, 'utf8'),
    /title: -x --not-an-option\n(.*\n)*priority: high/,
  );
});

const moves = suite('cli.task moves');
moves.after.each(cleanRoots);

moves('promote, status, list and show follow the task through its states', async () => {
  const root = tempRoot();
  const id = firstLine((await svc(root, 'task', 'create', 'Walk')).stdout);
  assert.is((await svc(root, 'task', 'promote', id)).stdout.trim(), `${id} backlog -> ready`);
  assert.ok(existsSync(`${root}/tasks/ready/${id}.md`));
  assert.not.ok(existsSync(`${root}/tasks/backlog/${id}.md`));
  const bad = await svc(root, 'task', 'status', id, 'done');
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /cannot move from ready to done \(only by close\)/);
  assert.is((await svc(root, 'task', 'status', id, 'blocked', '--reason', 'wait')).code, 0);
  const listed = JSON.parse((await svc(root, 'task', 'list', '--status', 'blocked', '--json')).stdout);
  assert.equal(
    listed.map((t: { id: string; status: string }) => [t.id, t.status]),
    [[id, 'blocked']],
  );
  const shown = await svc(root, 'task', 'show', id.slice(5, 17));
  assert.match(shown.stdout, new RegExp(`id: ${id}\\ntitle: Walk\\nstatus: blocked`));
  const json = JSON.parse((await svc(root, 'task', 'show', id, '--json')).stdout);
  assert.is(json.status, 'blocked');
  const moved = (await readEvents(root)).filter((e) => e.type === 'task.transitioned').map((e) => e.payload);
  assert.equal(moved, [
    { from: 'backlog', to: 'ready' },
    { from: 'ready', to: 'blocked', reason: 'wait' },
  ]);
});

moves('an ambiguous prefix lists the matches; an unknown status is refused', async () => {
  const root = tempRoot();
  const a = firstLine((await svc(root, 'task', 'create', 'A')).stdout);
  const b = firstLine((await svc(root, 'task', 'create', 'B')).stdout);
  const out = await svc(root, 'task', 'show', a.slice(0, -1));
  assert.is(out.code, 1);
  assert.match(out.stderr, new RegExp(`matches 2 tasks: ${a}, ${b}`));
  const json = await svc(root, 'task', 'show', a.slice(0, -1), '--json');
  assert.is(JSON.parse(json.stderr).error.code, 'ambiguous_id');
  const status = await svc(root, 'task', 'status', a, 'doing');
  assert.match(status.stderr, /Unknown status "doing"/);
  const path = await svc(root, 'task', 'show', '../../etc/passwd');
  assert.is(path.code, 1);
  assert.match(path.stderr, /Invalid task id/);
});

moves('unblock makes a blocked task ready, wherever it was blocked from; --to backlog puts it in backlog', async () => {
  const root = tempRoot();
  const fromBacklog = firstLine((await svc(root, 'task', 'create', 'Waits in backlog')).stdout);
  const parked = firstLine((await svc(root, 'task', 'create', 'Parked again')).stdout);
  for (const id of [fromBacklog, parked]) assert.is((await svc(root, 'task', 'block', id, '--reason', 'keys')).code, 0);
  assert.match(readFileSync(`${root}/tasks/blocked/${fromBacklog}.md`, 'utf8'), /blockedFrom: backlog/);
  assert.is((await svc(root, 'task', 'unblock', fromBacklog)).stdout, `${fromBacklog} blocked -> ready\n`);
  assert.not.match(readFileSync(`${root}/tasks/ready/${fromBacklog}.md`, 'utf8'), /blockedFrom|blockReason/);
  const back = await svc(root, 'task', 'unblock', parked, '--to', 'backlog');
  assert.is(back.stdout, `${parked} blocked -> backlog\n\`svc task promote ${parked}\` makes it ready.\n`);
  assert.not.match(readFileSync(`${root}/tasks/backlog/${parked}.md`, 'utf8'), /blockedFrom|blockReason/);
  // the same through the status command and the agent tool: the tool makes it ready
  await svc(root, 'task', 'status', parked, 'blocked', '--reason', 'again');
  const tool = await svc(root, 'tool', 'svc_task_unblock', JSON.stringify({ taskId: parked }));
  assert.is((JSON.parse(tool.stdout) as { status: string }).status, 'ready');
  const unblocked = (await readEvents(root))
    .filter((e) => e.type === 'task.transitioned' && (e.payload as { from: string }).from === 'blocked')
    .map((e) => [e.taskId, (e.payload as { to: string }).to]);
  assert.equal(unblocked, [
    [fromBacklog, 'ready'],
    [parked, 'backlog'],
    [parked, 'ready'],
  ]);
});

moves('unblock --to takes ready or backlog; another value is refused and changes nothing', async () => {
  const root = tempRoot();
  const id = firstLine((await svc(root, 'task', 'create', 'Blocked')).stdout);
  await svc(root, 'task', 'block', id, '--reason', 'keys');
  const bad = await svc(root, 'task', 'unblock', id, '--to', 'done');
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /--to takes ready or backlog, not "done"/);
  assert.match(bad.stderr, /hint: .*--to backlog/);
  assert.ok(existsSync(`${root}/tasks/blocked/${id}.md`));
});

moves('resurrect moves deadletter to ready, resets the counters and logs task.resurrected', async () => {
  const root = tempRoot();
  const id = firstLine((await svc(root, 'task', 'create', 'Dead')).stdout);
  const file = `${root}/tasks/backlog/${id}.md`;
  const text = readFileSync(file, 'utf8')
    .replace('status: backlog', 'status: deadletter')
    .replace('metadata: {}', 'metadata:\n  dispatchFailures: 3\n  lastFailureReason: agent_unavailable');
  writeFileSync(`${root}/tasks/deadletter/${id}.md`, text);
  (await import('node:fs')).unlinkSync(file);
  const out = await svc(root, 'task', 'resurrect', id);
  assert.is(out.stdout.trim(), `${id} deadletter -> ready`);
  const after = readFileSync(`${root}/tasks/ready/${id}.md`, 'utf8');
  assert.not.match(after, /dispatchFailures/);
  const event = (await readEvents(root)).find((e) => e.type === 'task.resurrected');
  assert.equal(event?.payload, { from: 'deadletter', to: 'ready', previousFailures: 3 });
  assert.is((await svc(root, 'task', 'resurrect', id)).code, 1);
});

const board = suite('cli.board');
board.after.each(cleanRoots);

board('shows the four columns with counts, and Blocked only when not empty', async () => {
  const root = tempRoot();
  const a = firstLine((await svc(root, 'task', 'create', 'Alpha', '--priority', 'critical')).stdout);
  const b = firstLine((await svc(root, 'task', 'create', 'Beta', '--depends-on', a)).stdout);
  await svc(root, 'task', 'promote', b);
  let out = (await svc(root, 'board')).stdout;
  assert.match(firstLine(out), /^Backlog \(1\)\s+\| Ready \(1\)\s+\| In-Progress \(0\)\s+\| Done \(0\)$/);
  assert.match(out, new RegExp(`waits on -${a.slice(-3)}`));
  assert.not.match(out, /Blocked/);
  await svc(root, 'task', 'block', a, '--reason', 'keys');
  out = (await svc(root, 'board')).stdout;
  assert.match(out, /\n\nBlocked \(1\)/);
  const json = JSON.parse((await svc(root, 'board', '--json')).stdout);
  assert.equal(
    json.columns.map((c: { title: string; count: number }) => `${c.title}:${c.count}`),
    ['Backlog:0', 'Ready:1', 'In-Progress:0', 'Done:0', 'Blocked:1'],
  );
});

create(
  'control and bidirectional characters of a title are shown escaped by list, show, board and events',
  async () => {
    const root = tempRoot();
    const title = 'Pay \x1b[31mnow\x1b[0m \u202Egnp.exe';
    const id = firstLine(
      (await svc(root, 'task', 'create', title, '--body', 'Line one\n\x1b]0;pwned\x07 line two')).stdout,
    );
    const outputs = [
      await svc(root, 'task', 'list'),
      await svc(root, 'task', 'show', id),
      await svc(root, 'board'),
      await svc(root, 'events'),
    ];
    for (const out of outputs) {
      assert.is(out.code, 0, out.stderr);
      assert.not.match(out.stdout, /[\x1b\x07\u202e]/, out.stdout);
    }
    assert.match(outputs[0]!.stdout, 'Pay \\x1b[31mnow\\x1b[0m \\u202egnp.exe');
    assert.match(outputs[1]!.stdout, 'Line one\n\\x1b]0;pwned\\x07 line two');
    assert.match(outputs[2]!.stdout, 'Pay \\x1b['); // the board cuts titles to its column width
    assert.match(outputs[3]!.stdout, '\\u001b[31mnow\\u001b[0m \\u202egnp.exe'); // a payload value is JSON; the bidi override is escaped too
    assert.is(
      (await svc(root, 'task', 'show', id, '--json')).stdout.includes('\\u001b[31m'),
      true,
      '--json keeps the title as written (JSON escapes it)',
    );
  },
);

create.run();
moves.run();
board.run();
