import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../../lib/store/events/log.js';
import { svc } from '../../helpers/cli.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const firstLine = (text: string) => text.split('\n')[0]!;

const leases = suite('cli.task leases');
leases.after.each(cleanRoots);

async function claimed(root: string): Promise<string> {
  const id = firstLine((await svc(root, 'task', 'create', 'Leased')).stdout);
  await svc(root, 'task', 'promote', id);
  const out = await svc(root, 'task', 'claim', id, '--agent', 'dev');
  assert.match(out.stdout, /in-progress: leased to dev until/);
  return id;
}

function expireLease(root: string, id: string): string {
  const file = `${root}/tasks/in-progress/${id}.md`;
  const past = '2000-01-01T00:00:00.000Z';
  writeFileSync(file, readFileSync(file, 'utf8').replace(/expiresAt: .*/, `expiresAt: '${past}'`));
  return past;
}

leases('close, update and claim fail with "Task has active lease" while the lease is live', async () => {
  const root = tempRoot();
  const id = await claimed(root);
  for (const argv of [
    ['close', id],
    ['update', id, '--body', 'x'],
    ['claim', id],
    ['close', id, '--recover-on-failure'],
  ]) {
    const out = await svc(root, 'task', ...argv);
    assert.is(out.code, 1, argv.join(' '));
    assert.match(out.stderr, /Task has active lease/);
  }
  assert.ok(existsSync(`${root}/tasks/in-progress/${id}.md`));
});

leases(
  '--recover-on-failure reclaims an expired lease to ready with recovery_action, then the retry succeeds',
  async () => {
    const root = tempRoot();
    const id = await claimed(root);
    const past = expireLease(root, id);
    const out = await svc(root, 'task', 'close', id, '--recover-on-failure');
    assert.is(out.code, 1);
    assert.ok(out.stderr.startsWith(`svc: The lease on ${id} had expired at ${past} (agent dev, session `), out.stderr);
    assert.match(
      out.stderr,
      /\): the lease was cleared and the task moved to ready \(recovery_action\); the command itself was not run\.\n/,
    );
    assert.not.match(out.stderr, /active lease|held a lease/);
    assert.match(out.stderr, /hint: Retry the command now: the task is in ready\./);
    const ready = readFileSync(`${root}/tasks/ready/${id}.md`, 'utf8');
    assert.not.match(ready, /lease:/);
    const recovery = (await readEvents(root)).filter((e) => e.type === 'recovery_action');
    assert.equal(
      recovery.map((e) => [e.actor, e.payload]),
      [['system', { action: 'lease_expired', details: { leaseExpiredAt: past, transitionedTo: 'ready' } }]],
    );
    const retry = await svc(root, 'task', 'close', id);
    assert.is(retry.stdout.trim(), `${id} ready -> done`);
  },
);

leases('the operator claims a task, gets its session id, and closes it without naming the lease', async () => {
  const root = tempRoot();
  const id = firstLine((await svc(root, 'task', 'create', 'Mine')).stdout);
  await svc(root, 'task', 'promote', id);
  const claim = await svc(root, 'task', 'claim', id);
  assert.is(claim.code, 0, claim.stderr);
  const session = /\(session ([0-9a-f-]{36})\)/.exec(claim.stdout)?.[1];
  assert.ok(session, claim.stdout);
  assert.match(claim.stdout, new RegExp(`leased to operator until .*\nnext: svc task close ${id},`));
  const update = await svc(root, 'task', 'update', id, '--body', 'Working on it');
  assert.is(update.code, 0, update.stderr);
  const close = await svc(root, 'task', 'close', id);
  assert.is(close.stdout.trim(), `${id} in-progress -> done`, close.stderr);
  const moved = (await readEvents(root))
    .filter((e) => e.type === 'task.transitioned')
    .map((e) => [e.actor, e.payload.to]);
  assert.equal(moved.slice(-2), [
    ['operator', 'in-progress'],
    ['operator', 'done'],
  ]);
});

leases(
  'every moving command refuses a foreign lease with the command that works; --session and --agent act as the holder',
  async () => {
    const root = tempRoot();
    const id = await claimed(root);
    const session = /sessionId: (\S+)/.exec(readFileSync(`${root}/tasks/in-progress/${id}.md`, 'utf8'))![1]!;
    const commands = [
      ['status', id, 'ready'],
      ['block', id, '--reason', 'keys'],
      ['close', id],
      ['update', id, '--status', 'ready'],
    ];
    for (const argv of commands) {
      const out = await svc(root, 'task', ...argv);
      assert.is(out.code, 1, argv.join(' '));
      assert.match(
        out.stderr,
        new RegExp(`Task has active lease: ${id} is held by agent dev \\(session ${session}\\) until \\d{4}-`),
      );
      assert.ok(
        out.stderr.includes(
          `hint: To act on it as its holder: svc task ${argv.join(' ').replace('--reason keys', "--reason 'keys'").replace('--status ready', "--status 'ready'")} --session ${session}.`,
        ),
        out.stderr,
      );
    }
    assert.ok(existsSync(`${root}/tasks/in-progress/${id}.md`), 'nothing moved');
    const asDev = await svc(root, 'task', 'status', id, 'blocked', '--agent', 'dev', '--reason', 'waiting');
    assert.is(asDev.stdout.trim(), `${id} in-progress -> blocked`, asDev.stderr);
    const other = await claimed(root);
    const otherSession = /sessionId: (\S+)/.exec(readFileSync(`${root}/tasks/in-progress/${other}.md`, 'utf8'))![1]!;
    const stale = await svc(root, 'task', 'cancel', other, '--session', session);
    assert.match(stale.stderr, /no longer holds/);
    const named = await svc(root, 'task', 'cancel', other, '--session', otherSession);
    assert.is(named.stdout.trim(), `${other} in-progress -> cancelled`, named.stderr);
  },
);

leases(
  'svc task cancel has no lease condition: it cancels a task another agent holds, whose next call is stale_session',
  async () => {
    const root = tempRoot();
    const id = await claimed(root);
    const session = /sessionId: (\S+)/.exec(readFileSync(`${root}/tasks/in-progress/${id}.md`, 'utf8'))![1]!;
    const cancel = await svc(root, 'task', 'cancel', id, '--reason', 'runaway');
    assert.is(cancel.stdout.trim(), `${id} in-progress -> cancelled`, cancel.stderr);
    const late = await svc(root, 'task', 'update', id, '--agent', 'dev', '--session', session, '--body', 'still at it');
    assert.is(late.code, 1);
    assert.match(late.stderr, `Session ${session} no longer holds ${id}`);
  },
);

leases(
  "short ids: bare 2, 20 and 200 are today's tasks in every command, tool parameters and events --task",
  async () => {
    const root = tempRoot();
    const a = firstLine((await svc(root, 'task', 'create', 'A')).stdout);
    const b = firstLine((await svc(root, 'task', 'create', 'B')).stdout);
    const today = b.slice(0, -'-002'.length);
    // Copies of B as the tasks 020 and 200 of today, and older dates sharing every sequence: each
    // date starts with 2, so a bare 2 taken as a prefix would match them all.
    const text = readFileSync(`${root}/tasks/backlog/${b}.md`, 'utf8');
    const copy = (id: string) => writeFileSync(`${root}/tasks/backlog/${id}.md`, text.replace(b, id));
    for (const id of [
      `${today}-020`,
      `${today}-200`,
      'TASK-2026-01-05-002',
      'TASK-2026-01-05-020',
      'TASK-2026-01-05-200',
      'TASK-2025-03-01-300',
      'TASK-2024-03-01-300',
    ])
      copy(id);
    const shows = async (arg: string) => /^id: (\S+)$/m.exec((await svc(root, 'task', 'show', arg)).stdout)?.[1];
    for (const [arg, id] of [
      ['2', b],
      ['02', b],
      ['002', b],
      ['-002', b],
      ['-2', b],
      ['1', a],
      ['20', `${today}-020`],
      ['-020', `${today}-020`],
      ['200', `${today}-200`],
      ['300', 'TASK-2025-03-01-300'],
    ]) {
      assert.is(await shows(arg!), id, `svc task show ${arg}`);
    }
    assert.is(await shows('--'), undefined);
    assert.match((await svc(root, 'task', 'show', '--', '-20')).stdout, new RegExp(`id: ${today}-020\n`));
    assert.is((await svc(root, 'task', 'promote', '200')).stdout.trim(), `${today}-200 backlog -> ready`);
    assert.is((await svc(root, 'task', 'promote', '-20')).stdout.trim(), `${today}-020 backlog -> ready`);
    const tool = await svc(
      root,
      'tool',
      'svc_task_edit',
      JSON.stringify({ taskId: '2', title: 'Renamed by sequence' }),
    );
    assert.is(tool.code, 0, tool.stderr);
    assert.match(readFileSync(`${root}/tasks/backlog/${b}.md`, 'utf8'), /title: Renamed by sequence/);
    const events = async (arg: string) =>
      (await svc(root, 'events', '--json', '--task', arg)).stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; taskId: string });
    for (const arg of ['2', '002', '-002'])
      assert.equal(
        (await events(arg)).map((e) => [e.type, e.taskId]),
        [
          ['task.created', b],
          ['task.updated', b],
        ],
        `events --task ${arg}`,
      );
    assert.equal(
      (await events('20')).map((e) => e.taskId),
      [`${today}-020`],
    );
    const child = await svc(root, 'task', 'create', 'Child', '--parent', '-2', '--depends-on', '-1,20');
    assert.is(child.code, 0, child.stderr);
    const childText = readFileSync(`${root}/tasks/backlog/${firstLine(child.stdout)}.md`, 'utf8');
    assert.match(childText, new RegExp(`parentId: ${b}\n`));
    assert.match(childText, new RegExp(`dependsOn:\n  - ${a}\n  - ${today}-020\n`));
    const missing = await svc(root, 'task', 'show', '404');
    assert.is(missing.code, 1);
    assert.match(missing.stderr, /No task has the sequence number "404"/);
    assert.not.match(missing.stderr, /Several dates/);
  },
);

leases('update replaces the body and changes status by the table', async () => {
  const root = tempRoot();
  const id = firstLine((await svc(root, 'task', 'create', 'Body')).stdout);
  const out = await svc(root, 'task', 'update', id, '--body', 'New body', '--status', 'ready', '--reason', 'start');
  assert.is(out.stdout.trim(), `${id} ready (moved) (body replaced)`);
  assert.match(readFileSync(`${root}/tasks/ready/${id}.md`, 'utf8'), /\nNew body\n$/);
  assert.is((await svc(root, 'task', 'update', id)).code, 1);
});

leases.run();
