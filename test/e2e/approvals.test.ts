import { mkdirSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { completingAgent, writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, healthy, runSvc, startChild } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// An approval gate through a real daemon, real agents and the real command line (docs/approvals-and-logs.md).
const FAST = { bootWindowMs: 200, pollIntervalMs: 200 };

function setUp(): { root: string; env: Record<string, string> } {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: completingAgent('implemented', { outcome: 'complete' }) }],
    roles: { implementer: { agents: ['dev'] } },
    aof: { daemon: FAST },
  });
  mkdirSync(`${root}/org/workflows`, { recursive: true });
  writeFileSync(
    `${root}/org/workflows/ship.yaml`,
    'workflow:\n  name: ship\n  gates:\n    - id: implement\n      role: implementer\n    - id: signoff\n      approval: true\n    - id: legal\n      approval: true\n',
  );
  return { root, env: { SVC_HOME: root, HOME: root } };
}

/** The task's `metadata.awaiting` once it is blocked at an approval gate (a later `since` than `after`). */
async function awaiting(root: string, id: string, after = ''): Promise<{ gate: string; since: string }> {
  return within(
    20_000,
    async () => {
      const stored = await createStore({ root }).get(id);
      const value = stored.task.metadata.awaiting as { gate: string; since: string } | undefined;
      return stored.status === 'blocked' && value && value.since > after ? value : null;
    },
    `${id} to wait for approval`,
  );
}

const flow = suite('e2e.approval gates');
flow.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

flow(
  'a task reaching an approval gate waits, is listed, is alerted once, refuses unblock, and goes back on reject and to done on approve',
  async () => {
    const { root, env } = setUp();
    const daemon = startChild(root);
    await healthy(root);
    const created = await runSvc(env, 'task', 'create', 'Ship \u001b[31mit', '--workflow', 'ship', '--json');
    assert.is(created.code, 0, created.stderr);
    const id = (JSON.parse(created.stdout) as { id: string }).id;
    const sequence = `-${id.slice(-3)}`;
    assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
    const first = await awaiting(root, id);
    assert.is(first.gate, 'signoff');
    await within(
      15_000,
      () => daemon.output().includes(`[AOF] APPROVAL NEEDED: ${id} "Ship \\x1b[31mit" at gate signoff`),
      'the APPROVAL NEEDED line, its title escaped',
    );

    const listed = await runSvc(env, 'task', 'list', '--awaiting');
    assert.is(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${id}\\s+signoff\\s+\\d+(\\.\\d)? (s|min)\\s+Ship \\\\x1b\\[31mit$`, 'm'));
    const json = JSON.parse((await runSvc(env, 'task', 'list', '--awaiting', '--json')).stdout) as {
      id: string;
      awaiting: { gate: string };
    }[];
    assert.equal(
      json.map((row) => [row.id, row.awaiting.gate]),
      [[id, 'signoff']],
    );

    const unblock = await runSvc(env, 'task', 'unblock', sequence);
    assert.is.not(unblock.code, 0);
    assert.match(unblock.stderr, /waits for approval at gate `signoff`/);
    assert.match(unblock.stderr, new RegExp(`svc task approve ${id}`));
    assert.is((await createStore({ root }).get(id)).status, 'blocked', 'the refused unblock changed nothing');

    const bare = await runSvc(env, 'task', 'reject', sequence);
    assert.is(bare.code, 2, bare.stderr);
    assert.match(bare.stderr, /needs --note/);
    const rejected = await runSvc(
      env,
      'task',
      'reject',
      sequence,
      '--gate',
      'signoff',
      '--note',
      'add the changelog',
      '--by',
      'alice',
      '--json',
    );
    assert.is(rejected.code, 0, rejected.stderr);
    assert.equal(JSON.parse(rejected.stdout), {
      taskId: id,
      gate: 'signoff',
      decision: 'rejected',
      status: 'ready',
      at: 'implement',
      changed: true,
      message: `${id} rejected at gate signoff: now ready at gate implement`,
    });
    const again = await awaiting(root, id, first.since); // dev works the origin gate again
    const stored = await createStore({ root }).get(id);
    assert.match(stored.body, /## Blockers \(rejected at gate signoff by alice\)\n\n- add the changelog/);

    const signed = await runSvc(env, 'task', 'approve', id, '--gate', 'signoff', '--by', 'bob');
    assert.is(signed.stdout, `${id} approved at gate signoff: now blocked at gate legal\n`);
    await within(
      15_000,
      () => daemon.output().includes(`[AOF] APPROVAL NEEDED: ${id} "Ship \\x1b[31mit" at gate legal`),
      'the alert of the next approval gate',
    );
    const approved = await runSvc(
      env,
      'task',
      'approve',
      id,
      '--gate',
      'legal',
      '--note',
      'ship it',
      '--by',
      'bob',
      '--request-id',
      'approve-1',
    );
    assert.is(approved.code, 0, approved.stderr);
    assert.is(approved.stdout, `${id} approved at gate legal: now done\n`);
    const retried = await runSvc(
      env,
      'task',
      'approve',
      id,
      '--gate',
      'legal',
      '--note',
      'ship it',
      '--by',
      'bob',
      '--request-id',
      'approve-1',
    );
    assert.is(retried.stdout, approved.stdout, 'a rerun under the same request id gets the first answer');
    assert.is((await createStore({ root }).get(id)).status, 'done');
    const twice = await runSvc(env, 'task', 'approve', id, '--gate', 'legal');
    assert.is(twice.code, 0, twice.stderr);
    assert.match(
      twice.stdout,
      new RegExp(`${id} was already approved at gate legal by bob at .*; nothing changed \\(it is done\\)`),
    );
    const late = await runSvc(env, 'task', 'reject', id, '--gate', 'legal', '--note', 'too late');
    assert.is.not(late.code, 0);
    assert.match(
      late.stderr,
      new RegExp(
        `${id} was already approved at gate legal by bob at .* \\(it is done\\): this rejection was not applied`,
      ),
    );

    const gateEvents = (await readEvents(root, { taskId: id })).filter((e) => e.type.startsWith('gate.'));
    const decisions = gateEvents
      .filter((e) => e.type === 'gate.approved' || e.type === 'gate.rejected')
      .map((e) => [e.type, e.actor, e.payload.gate, e.payload.by, e.payload.note]);
    assert.equal(decisions, [
      ['gate.rejected', 'alice', 'signoff', 'alice', 'add the changelog'],
      ['gate.approved', 'bob', 'signoff', 'bob', null],
      ['gate.approved', 'bob', 'legal', 'bob', 'ship it'],
    ]);
    assert.is(gateEvents.filter((e) => e.type === 'gate.awaiting').length, 3);
    assert.is(
      daemon
        .output()
        .split('\n')
        .filter((line) => line.startsWith(`[AOF] APPROVAL NEEDED: ${id} `)).length,
      3,
      'one alert per arrival',
    );
    assert.ok(again.since > first.since);
  },
);

flow(
  'the approval tools answer on the socket with the operator as actor; a task that does not wait is a clear error',
  async () => {
    const { root, env } = setUp();
    startChild(root);
    await healthy(root);
    const created = JSON.parse((await runSvc(env, 'task', 'create', 'Plain', '--json')).stdout) as { id: string };
    const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
      tool: 'svc_task_approve',
      params: { taskId: created.id, actor: 'web:carol' },
    });
    assert.is(status, 409, JSON.stringify(body));
    assert.match(JSON.stringify(body), /is backlog, not waiting for approval: there is nothing to approve/);
    const missing = await call(root, 'POST', '/v1/tool/invoke', {
      tool: 'svc_task_reject',
      params: { taskId: created.id, actor: 'web:carol' },
    });
    assert.is(missing.status, 400, JSON.stringify(missing.body));
    assert.match(JSON.stringify(missing.body), /note/);
    const viaTool = await runSvc(
      env,
      'tool',
      'svc_task_approve',
      JSON.stringify({ taskId: created.id, actor: 'carol' }),
    );
    assert.is.not(viaTool.code, 0);
    assert.match(viaTool.stderr, /not waiting for approval/);
  },
);

flow.run();
