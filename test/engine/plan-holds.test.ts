import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { plan, type PlanContext, type PlanTask, type Snapshot } from '../../lib/engine/plan.js';
import { validateOrg } from '../../lib/org/org-chart.js';
import type { AgentPause } from '../../lib/store/records/agent-pauses.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const org = validateOrg(
  {
    schemaVersion: 1,
    agents: [
      { id: 'dev', name: 'Dev', command: ['true'] },
      { id: 'dev2', name: 'Dev 2', command: ['true'] },
      { id: 'rev', name: 'Reviewer', command: ['true'] },
    ],
    teams: [{ id: 'core', name: 'Core', members: ['dev', 'dev2'] }],
    roles: { reviewer: { agents: ['rev'] } },
  },
  'test org',
);

function task(id: string, extra: Partial<PlanTask> = {}): PlanTask {
  return {
    id,
    status: 'ready',
    priority: 'normal',
    createdAt: `2026-11-21T09:00:0${id.slice(-1)}.000Z`,
    routing: { agent: 'dev' },
    dependsOn: [],
    ...extra,
  };
}
const snap = (ready: PlanTask[]): Snapshot => ({ ready, inProgress: [], statusOf: () => undefined });
const pauses = (...agents: string[]): Map<string, AgentPause> =>
  new Map(
    agents.map((agent) => [
      agent,
      { agent, since: '2026-11-21T09:30:00.000Z', by: 'operator', reason: 'key rotation' },
    ]),
  );
const ctx = (extra: Partial<PlanContext> = {}): PlanContext => ({
  org,
  maxConcurrentDispatches: 5,
  now: NOW,
  mode: 'standalone',
  pluginAttached: false,
  gatewayConfigured: true,
  ...extra,
});
const brief = (actions: ReturnType<typeof plan>) =>
  actions.map((a) =>
    a.kind === 'dispatch'
      ? `${a.taskId}>${a.agent}`
      : a.kind === 'hold'
        ? `${a.taskId}:${a.reason}`
        : `${a.taskId}:${a.kind}`,
  );

const paused = suite('engine.plan agent-paused');

paused(
  'routing decides: a named paused agent holds its task; a team or role goes to another candidate, else holds',
  () => {
    const cases: [string, PlanTask[], string[], string[]][] = [
      ['named agent paused', [task('t1')], ['dev'], ['t1:agent-paused']],
      ['named agent not paused', [task('t1')], ['dev2'], ['t1>dev']],
      ['team: the other member takes it', [task('t1', { routing: { team: 'core' } })], ['dev'], ['t1>dev2']],
      ['team: every member paused', [task('t1', { routing: { team: 'core' } })], ['dev', 'dev2'], ['t1:agent-paused']],
      [
        'role with its only agent paused',
        [task('t1', { routing: { role: 'reviewer' } })],
        ['rev'],
        ['t1:agent-paused'],
      ],
      ['no pauses at all', [task('t1'), task('t2', { routing: { role: 'reviewer' } })], [], ['t1>dev', 't2>rev']],
    ];
    for (const [name, ready, agents, expected] of cases)
      assert.equal(brief(plan(snap(ready), ctx({ paused: pauses(...agents) }))), expected, name);
  },
);

paused('the hold says who paused the agent, when, why and how to resume it', () => {
  const [hold] = plan(snap([task('t1')]), ctx({ paused: pauses('dev') }));
  assert.is(hold?.kind, 'hold');
  assert.match(
    (hold as { detail: string }).detail,
    /agent dev is paused since 2026-11-21T09:30:00.000Z by operator \(key rotation\); `svc agent resume dev`/,
  );
});

paused("a paused agent's held task does not count against the global limit", () => {
  const ready = [task('t1'), task('t2', { routing: { agent: 'dev2' } })];
  assert.equal(brief(plan(snap(ready), ctx({ paused: pauses('dev'), maxConcurrentDispatches: 1 }))), [
    't1:agent-paused',
    't2>dev2',
  ]);
});

const notBefore = suite('engine.plan not-before');

notBefore("a task waits until notBefore, with the time as the hold's until; at or after it, it is dispatched", () => {
  const later = '2026-11-21T10:00:05.000Z';
  const cases: [string, string, string[]][] = [
    ['ahead', later, ['t1:not-before']],
    ['now', NOW.toISOString(), ['t1>dev']],
    ['past', '2026-11-21T09:00:00.000Z', ['t1>dev']],
  ];
  for (const [name, at, expected] of cases)
    assert.equal(brief(plan(snap([task('t1', { notBefore: at })]), ctx())), expected, name);
  const [hold] = plan(snap([task('t1', { notBefore: later })]), ctx());
  assert.equal(hold, { kind: 'hold', taskId: 't1', reason: 'not-before', detail: `not before ${later}`, until: later });
});

notBefore('notBefore is checked before routing: a waiting task for a paused agent shows not-before', () => {
  assert.equal(
    brief(plan(snap([task('t1', { notBefore: '2026-11-21T11:00:00.000Z' })]), ctx({ paused: pauses('dev') }))),
    ['t1:not-before'],
  );
});

paused.run();
notBefore.run();

const approval = suite('engine.plan approval');

approval('a ready task at an approval gate is held, never dispatched, even with an agent named and idle', () => {
  const [hold] = plan(snap([task('t1', { approval: true }), task('t2')]), ctx());
  assert.equal(brief(plan(snap([task('t1', { approval: true }), task('t2')]), ctx())), ['t1:approval', 't2>dev']);
  assert.match((hold as { detail: string }).detail, /approval gate: `svc task approve t1`/);
});

approval.run();

const budget = suite('engine.plan budget');

budget(
  'a ready task for an agent whose budget is spent is held with the detail; others go, and so does it after',
  () => {
    const spent = (agent: string) => (agent === 'dev' ? 'agent dev spent $20.40 of $20 today (usdPerDay)' : null);
    const tasks = [task('t1'), task('t2', { routing: { agent: 'dev2' } })];
    const actions = plan(snap(tasks), ctx({ budgetHold: spent }));
    assert.equal(brief(actions), ['t1:budget', 't2>dev2']);
    assert.equal(actions[0], {
      kind: 'hold',
      taskId: 't1',
      reason: 'budget',
      detail: 'agent dev spent $20.40 of $20 today (usdPerDay)',
    });
    assert.equal(brief(plan(snap(tasks), ctx({ budgetHold: () => null }))), ['t1>dev', 't2>dev2']);
  },
);

budget('a task routed to a team goes to a member with budget left; held when every member has spent one', () => {
  const spentBy =
    (...agents: string[]) =>
    (agent: string) =>
      agents.includes(agent) ? `agent ${agent} spent` : null;
  const team = task('t1', { routing: { team: 'core' } });
  assert.equal(brief(plan(snap([team]), ctx({ budgetHold: spentBy('dev') }))), ['t1>dev2']);
  const held = plan(snap([team]), ctx({ budgetHold: spentBy('dev', 'dev2') }));
  assert.equal(brief(held), ['t1:budget']);
  assert.match(
    (held[0] as { detail: string }).detail,
    /^agent dev spent \(every other candidate has spent a budget too\)$/,
  );
});

budget('a spent budget is asked of the routed agent only, and a paused agent is routed around first', () => {
  const asked: string[] = [];
  const spent = (agent: string) => {
    asked.push(agent);
    return null;
  };
  const actions = plan(snap([task('t1', { routing: { role: 'reviewer' } })]), ctx({ budgetHold: spent }));
  assert.equal(brief(actions), ['t1>rev']);
  assert.equal(asked, ['rev']);
  const paused = pauses('dev');
  const both = plan(
    snap([task('t2', { routing: { team: 'core' } })]),
    ctx({ paused, budgetHold: (a) => (a === 'dev2' ? 'spent' : null) }),
  );
  assert.equal(brief(both), ['t2:budget']);
});

budget.run();
