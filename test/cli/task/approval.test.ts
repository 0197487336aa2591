import { mkdirSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../../lib/store/events/log.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { writeOrg } from '../../helpers/agents.js';
import { svc } from '../../helpers/cli.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

// svc task approve / reject / list --awaiting without a daemon: the same tools run on the files.
function setUp(): string {
  const root = tempRoot();
  writeOrg(root, {
    agents: [
      { id: 'dev', name: 'Dev' },
      { id: 'ops', name: 'Ops' },
    ],
    roles: { implementer: { agents: ['dev'] }, publisher: { agents: ['ops'] } },
  });
  mkdirSync(`${root}/org/workflows`, { recursive: true });
  writeFileSync(
    `${root}/org/workflows/ship.yaml`,
    'workflow:\n  name: ship\n  gates:\n    - { id: implement, role: implementer }\n    - { id: signoff, approval: true }\n    - { id: legal, approval: true }\n    - { id: publish, role: publisher }\n',
  );
  return root;
}

/** A task of workflow ship that dev implemented: it now waits at `signoff`. */
async function implemented(root: string, title: string): Promise<string> {
  const id = (await svc(root, 'task', 'create', title, '--workflow', 'ship')).stdout.split('\n')[0]!;
  assert.is((await svc(root, 'task', 'promote', id)).code, 0);
  const claim = await svc(root, 'task', 'claim', id, '--agent', 'dev');
  const session = /session ([0-9a-f-]+)/.exec(claim.stdout)![1]!;
  const done = await svc(
    root,
    'tool',
    'svc_task_complete',
    JSON.stringify({ taskId: id, sessionId: session, outcome: 'complete', actor: 'dev' }),
  );
  assert.is(done.code, 0, done.stderr);
  assert.equal(JSON.parse(done.stdout), { taskId: id, status: 'blocked' });
  return id;
}

const approval = suite('cli.task approve (no daemon)');
approval.after.each(cleanRoots);

approval(
  'approving walks the gates: approval gate to approval gate, then to the agent gate after them, each decision naming its gate',
  async () => {
    const root = setUp();
    const id = await implemented(root, 'Release notes');
    const bare = await svc(root, 'task', 'approve', id, '--by', 'alice');
    assert.is(bare.code, 1, bare.stdout);
    assert.match(
      bare.stderr,
      /has 2 approval gates \(signoff, legal\): a decision must name the gate it decides, and it waits at gate `signoff`/,
    );
    assert.match(bare.stderr, new RegExp(`svc task approve ${id} --gate signoff`));
    assert.is((await createStore({ root }).get(id)).task.gate?.current, 'signoff', 'the bare approval changed nothing');
    const first = await svc(root, 'task', 'approve', id, '--gate', 'signoff', '--by', 'alice', '--json');
    assert.is(first.code, 0, first.stderr);
    assert.equal(JSON.parse(first.stdout), {
      taskId: id,
      gate: 'signoff',
      decision: 'approved',
      status: 'blocked',
      at: 'legal',
      changed: true,
      message: `${id} approved at gate signoff: now blocked at gate legal`,
    });
    assert.is(((await createStore({ root }).get(id)).task.metadata.awaiting as { gate: string }).gate, 'legal');
    const repeat = await svc(root, 'task', 'approve', id, '--gate', 'signoff', '--by', 'bob');
    assert.is(repeat.code, 0, repeat.stderr);
    assert.match(
      repeat.stdout,
      /was already approved at gate signoff by alice at .*; nothing changed \(it is blocked at gate legal\)/,
    );
    const second = await svc(root, 'task', 'approve', id, '--gate', 'legal', '--note', 'cleared');
    assert.is(second.stdout, `${id} approved at gate legal: now ready at gate publish\n`);
    const stored = await createStore({ root }).get(id);
    assert.is(stored.status, 'ready');
    assert.is(stored.task.gate?.current, 'publish');
    assert.is(stored.task.metadata.awaiting, undefined);
    const events = (await readEvents(root, { taskId: id, type: 'gate.approved' })).map((e) => [
      e.payload.gate,
      e.payload.by,
      e.payload.note,
      e.payload.to,
    ]);
    assert.equal(events, [
      ['signoff', 'alice', null, 'legal'],
      ['legal', 'operator', 'cleared', 'publish'],
    ]);
    const twice = await svc(root, 'task', 'approve', id, '--gate', 'legal');
    assert.is(twice.code, 0, twice.stderr);
    assert.match(
      twice.stdout,
      /was already approved at gate legal by operator at .*; nothing changed \(it is ready at gate publish\)/,
    );
    const late = await svc(root, 'task', 'reject', id, '--gate', 'legal', '--note', 'no');
    assert.is(late.code, 1, late.stdout);
    assert.match(
      late.stderr,
      /was already approved at gate legal by operator at .* \(it is ready at gate publish\): this rejection was not applied/,
    );
    assert.match(late.stderr, /svc task list --awaiting/);
    const unknown = await svc(root, 'task', 'approve', id, '--gate', 'publish');
    assert.is(unknown.code, 1, unknown.stdout);
    assert.match(unknown.stderr, /Workflow ship has no approval gate `publish` \(its approval gates: signoff, legal\)/);
    assert.is(
      (await readEvents(root, { taskId: id, type: 'gate.approved' })).length,
      2,
      'the refusals and the no-ops logged nothing',
    );
  },
);

approval('with a single approval gate the gate may be left out, and a repeat is a no-op', async () => {
  const root = setUp();
  writeFileSync(
    `${root}/org/workflows/ship.yaml`,
    'workflow:\n  name: ship\n  gates:\n    - { id: implement, role: implementer }\n    - { id: signoff, approval: true }\n',
  );
  const id = await implemented(root, 'One gate');
  const first = await svc(root, 'task', 'approve', id, '--by', 'alice');
  assert.is(first.stdout, `${id} approved at gate signoff: now done\n`);
  const again = await svc(root, 'task', 'approve', id, '--by', 'bob');
  assert.is(again.code, 0, again.stderr);
  assert.match(again.stdout, /was already approved at gate signoff by alice at .*; nothing changed \(it is done\)/);
});

approval(
  'list --awaiting shows the waiting tasks, oldest wait first; a move of an awaiting task other than approve, reject or cancel is refused',
  async () => {
    const root = setUp();
    const older = await implemented(root, 'Older');
    const newer = await implemented(root, 'Newer');
    await svc(root, 'task', 'create', 'Unrelated');
    const listed = await svc(root, 'task', 'list', '--awaiting');
    assert.is(listed.code, 0, listed.stderr);
    const lines = listed.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID\s+GATE\s+WAITING\s+TITLE$/);
    assert.equal(
      lines.slice(1).map((line) => line.split(/\s+/)[0]),
      [older, newer],
    );
    assert.is(
      (await svc(root, 'task', 'list', '--awaiting', '--status', 'ready')).stdout,
      '(no task waits for approval)\n',
    );
    const moved = await svc(root, 'task', 'status', newer, 'ready');
    assert.is(moved.code, 1);
    assert.match(moved.stderr, /waits for approval at gate `signoff`.*it cannot be moved to ready/);
    const unblock = await svc(root, 'tool', 'svc_task_unblock', JSON.stringify({ taskId: newer, actor: 'dev' }));
    assert.is(unblock.code, 1);
    assert.match(unblock.stderr, /svc task approve/);
    const update = await svc(
      root,
      'tool',
      'svc_task_update',
      JSON.stringify({ taskId: newer, status: 'ready', actor: 'dev' }),
    );
    assert.is(update.code, 1);
    assert.match(update.stderr, /waits for approval at gate `signoff`/);
    assert.is((await svc(root, 'task', 'update', newer, '--status', 'ready')).code, 1);
    assert.is((await createStore({ root }).get(newer)).status, 'blocked');
    assert.is((await svc(root, 'task', 'cancel', newer)).code, 0, 'a cancel is allowed');
    assert.equal(
      (await svc(root, 'task', 'list', '--awaiting')).stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => line.split(/\s+/)[0]),
      [older],
    );
    assert.is((await svc(root, 'task', 'list', '--awaiting', '--json')).code, 0);
  },
);

approval('an agent cannot complete an approval gate: svc_task_complete is refused there', async () => {
  const root = setUp();
  const id = await implemented(root, 'Gate');
  await createStore({ root }).commit(
    id,
    (current) => ({ task: current.task, body: current.body, status: 'ready' }),
    'test',
  ); // by hand, past the guards
  const claim = await svc(root, 'task', 'claim', id, '--agent', 'dev');
  const session = /session ([0-9a-f-]+)/.exec(claim.stdout)![1]!;
  const done = await svc(
    root,
    'tool',
    'svc_task_complete',
    JSON.stringify({ taskId: id, sessionId: session, outcome: 'complete', actor: 'dev' }),
  );
  assert.is(done.code, 1);
  assert.match(done.stderr, /is at gate `signoff`, an approval gate: a person approves it, not svc_task_complete/);
});

approval.run();
