import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { plan, type PlanContext, type PlanTask, type Snapshot } from '../../lib/engine/plan.js';
import { validateOrg } from '../../lib/org/org-chart.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const org = validateOrg(
  { schemaVersion: 1, agents: [{ id: 'dev', name: 'Dev', command: ['true'], maxConcurrent: 5 }] },
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

const hold = suite('engine.plan workspace-host');

hold('a task whose worktree is on another host is held; this host and no worktree dispatch', () => {
  const cases: [string, PlanTask, string | undefined, string[]][] = [
    ['worktree here', task('t1', { workspaceHost: 'a' }), 'a', ['t1>dev']],
    ['worktree on another host', task('t1', { workspaceHost: 'b' }), 'a', ['t1:workspace-host']],
    ['no worktree yet', task('t1'), 'a', ['t1>dev']],
    ['a planner that does not know its host', task('t1', { workspaceHost: 'b' }), undefined, ['t1>dev']],
  ];
  for (const [name, ready, host, expected] of cases)
    assert.equal(
      brief(plan({ ready: [ready], inProgress: [], statusOf: () => undefined }, ctx({ host }))),
      expected,
      name,
    );
  const [held] = plan(
    { ready: [task('t1', { workspaceHost: 'b' })], inProgress: [], statusOf: () => undefined },
    ctx({ host: 'a' }),
  );
  assert.match((held as { detail: string }).detail, /its worktree is on host b; only the daemon there dispatches it/);
});

hold(
  "a lease to svc (the daemon running the task's checks) is expired by the planner like an agent's once past its expiry",
  () => {
    const past = '2026-11-21T09:00:00.000Z';
    const snapshot: Snapshot = {
      ready: [],
      statusOf: () => undefined,
      inProgress: [
        task('t1', { status: 'in-progress', lease: { agent: 'svc', sessionId: 's1', expiresAt: past } }),
        task('t2', { status: 'in-progress', lease: { agent: 'dev', sessionId: 's2', expiresAt: past } }),
      ],
    };
    assert.equal(brief(plan(snapshot, ctx())), ['t1:expire', 't2:expire']);
    const future = '2026-11-21T11:00:00.000Z';
    const running = {
      ...snapshot,
      inProgress: [task('t1', { status: 'in-progress', lease: { agent: 'svc', sessionId: 's1', expiresAt: future } })],
    };
    assert.equal(brief(plan(running, ctx())), []);
  },
);

hold(
  "only the tasks of an unavailable workspace are held (by routing.workspace or the agent's), the others dispatch",
  () => {
    const chart = validateOrg(
      {
        schemaVersion: 1,
        agents: [
          { id: 'dev', name: 'Dev', command: ['true'], maxConcurrent: 5, workspace: 'app' },
          { id: 'ops', name: 'Ops', command: ['true'], maxConcurrent: 5 },
        ],
        aof: { workspaces: { app: { repo: '/gone/app' }, lib: { repo: '/gone/lib' } } },
      },
      'test org',
    );
    const gone = [{ name: 'app', problem: 'aof.workspaces.app.repo: /gone/app is not a directory' }];
    const ready = [
      task('t1'),
      task('t2', { routing: { agent: 'ops' } }),
      task('t3', { routing: { agent: 'ops', workspace: 'app' } }),
      task('t4', { routing: { agent: 'ops', workspace: 'lib' } }),
    ];
    const actions = plan(
      { ready, inProgress: [], statusOf: () => undefined },
      ctx({ org: chart, unavailableWorkspaces: gone }),
    );
    assert.equal(brief(actions), ['t1:workspace-unavailable', 't2>ops', 't3:workspace-unavailable', 't4>ops']);
    assert.match(
      (actions[0] as { detail: string }).detail,
      /^workspace app cannot be used: aof\.workspaces\.app\.repo: \/gone\/app is not a directory; its tasks wait/,
    );
  },
);

hold.run();
