import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { completingAgent, writeOrg } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

const run = suite('cli.scheduler run');
run.after.each(cleanRoots);

async function setup(root: string) {
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }] });
  const a = (await svc(root, 'task', 'create', 'First', '--agent', 'dev')).stdout.split('\n')[0]!;
  const b = (await svc(root, 'task', 'create', 'Second', '--agent', 'dev', '--depends-on', a)).stdout.split('\n')[0]!;
  const c = (await svc(root, 'task', 'create', 'Nobody')).stdout.split('\n')[0]!;
  for (const id of [a, b, c]) await svc(root, 'task', 'promote', id);
  return { a, b, c };
}

run('a dry run prints the plan and changes nothing, events included', async () => {
  const root = tempRoot();
  const { a, b, c } = await setup(root);
  const before = (await readEvents(root)).length;
  const out = await svc(root, 'scheduler', 'run');
  assert.is(out.code, 0, out.stderr);
  assert.match(out.stdout, new RegExp(`dispatch    ${a} -> dev \\(command\\)`));
  assert.match(out.stdout, new RegExp(`hold        ${b}: dependencies: waits on ${a}`));
  assert.match(out.stdout, new RegExp(`hold        ${c}: no-route`));
  assert.match(out.stdout, /dry run: 1 to dispatch, 2 held, 0 leases expired, 0 to deadletter \(nothing changed\)/);
  assert.is((await readEvents(root)).length, before);
  assert.equal(
    readdirSync(`${root}/tasks/in-progress`).filter((n) => n.endsWith('.md')),
    [],
  );
  const json = JSON.parse((await svc(root, 'scheduler', 'run', '--json')).stdout);
  assert.equal(
    json.actions.map((x: { kind: string }) => x.kind),
    ['dispatch', 'hold', 'hold'],
  );
});

run('--active without a daemon runs one tick and dispatches', async () => {
  const root = tempRoot();
  const { a } = await setup(root);
  const out = await svc(root, 'scheduler', 'run', '--active');
  assert.is(out.code, 0, out.stderr);
  assert.match(out.stdout, /tick: 1 to dispatch/);
  await within(15_000, async () => readdirSync(`${root}/tasks/done`).includes(`${a}.md`), 'first task done');
  const dispatched = (await readEvents(root, { type: 'task.dispatched' })).map((e) => e.taskId);
  assert.equal(dispatched, [a]);
});

run('a gated task goes through each gate, dispatched to the gate role, to done', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [
      {
        id: 'impl',
        name: 'Implementer',
        command: completingAgent('built it', { outcome: 'complete', callerRole: 'implementer' }),
      },
      {
        id: 'rev',
        name: 'Reviewer',
        command: completingAgent('looks good', { outcome: 'complete', callerRole: 'reviewer' }),
      },
    ],
    roles: { implementer: { agents: ['impl'] }, reviewer: { agents: ['rev'] } },
  });
  mkdirSync(`${root}/org/workflows`, { recursive: true });
  writeFileSync(
    `${root}/org/workflows/ship.yaml`,
    'workflow:\n  name: ship\n  rejectionStrategy: origin\n  gates:\n    - id: implement\n      role: implementer\n    - id: review\n      role: reviewer\n      canReject: true\n  outcomes: { complete: advance, needs_review: reject, blocked: hold }\n',
  );
  const created = await svc(root, 'task', 'create', 'Gated', '--workflow', 'ship');
  assert.is(created.code, 0, created.stderr);
  const id = created.stdout.split('\n')[0]!;
  await svc(root, 'task', 'promote', id);
  await svc(root, 'scheduler', 'run', '--active');
  await within(
    15_000,
    async () => readdirSync(`${root}/tasks/ready`).includes(`${id}.md`),
    'back in ready at the review gate',
  );
  await svc(root, 'scheduler', 'run', '--active');
  await within(15_000, async () => readdirSync(`${root}/tasks/done`).includes(`${id}.md`), 'done after review');
  const agents = (await readEvents(root, { type: 'task.dispatched' })).map((e) => e.payload.agent);
  assert.equal(agents, ['impl', 'rev']);
  const gates = await within(
    5_000,
    async () => {
      const found = (await readEvents(root, { type: 'gate.transition' })).map((e) => [e.payload.from, e.payload.to]);
      return found.length === 2 && found;
    },
    'both gate transitions logged',
  );
  assert.equal(gates, [
    ['implement', 'review'],
    ['review', null],
  ]);
});

run.run();
