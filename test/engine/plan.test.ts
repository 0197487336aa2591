import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { plan, type PlanContext, type PlanTask, type Snapshot } from '../../lib/engine/plan.js';
import { validateOrg } from '../../lib/org/org-chart.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const org = validateOrg({
  schemaVersion: 1,
  agents: [
    { id: 'dev', name: 'Dev', command: ['true'], capabilities: ['ts'], maxConcurrent: 2 },
    { id: 'dev2', name: 'Dev 2', command: ['true'], capabilities: ['ts', 'db'] },
    { id: 'gw', name: 'Gateway agent' },
    { id: 'off', name: 'Off', active: false, command: ['true'] },
  ],
  teams: [{ id: 'core', name: 'Core', members: ['dev2', 'dev'] }],
  roles: { reviewer: { agents: ['dev2'] } },
}, 'test org');

function task(id: string, extra: Partial<PlanTask> = {}): PlanTask {
  return { id, status: 'ready', priority: 'normal', createdAt: `2026-11-21T09:00:0${id.slice(-1)}.000Z`, routing: { agent: 'dev' }, dependsOn: [], ...extra };
}

function snap(ready: PlanTask[], inProgress: PlanTask[] = [], done: string[] = []): Snapshot {
  const status = new Map<string, string>([...ready.map((t) => [t.id, 'ready'] as const), ...inProgress.map((t) => [t.id, 'in-progress'] as const), ...done.map((id) => [id, 'done'] as const)]);
  return { ready, inProgress, statusOf: (id) => status.get(id) as never };
}

const ctx = (extra: Partial<PlanContext> = {}): PlanContext => ({ org, maxConcurrentDispatches: 3, now: NOW, mode: 'standalone', pluginAttached: false, gatewayConfigured: true, ...extra });
const brief = (actions: ReturnType<typeof plan>) => actions.map((a) => (a.kind === 'dispatch' ? `${a.taskId}>${a.agent}:${a.adapter}` : a.kind === 'hold' ? `${a.taskId}:${a.reason}` : `${a.taskId}:${a.kind}`));

const order = suite('engine.plan order and limits');

order('dispatches by priority, then age, within the agent and global limits', () => {
  const ready = [task('t1'), task('t2', { priority: 'critical' }), task('t3', { priority: 'low' }), task('t4', { priority: 'high' })];
  assert.equal(brief(plan(snap(ready), ctx())), ['t2>dev:command', 't4>dev:command', 't1:agent-busy', 't3:agent-busy']);
});

order('a task whose previous run is still alive is held previous-run-ending, and its slot goes to the next task', () => {
  const ready = [task('t1'), task('t2'), task('t3')];
  const snapshot = { ...snap(ready), previousRun: (id: string) => (id === 't1' ? 'the local agent of session s (pid 42) got SIGTERM' : null) };
  const actions = plan(snapshot, ctx());
  assert.equal(brief(actions), ['t1:previous-run-ending', 't2>dev:command', 't3>dev:command']);
  assert.equal(actions[0], { kind: 'hold', taskId: 't1', reason: 'previous-run-ending', detail: 'the local agent of session s (pid 42) got SIGTERM' });
});

order('the global limit counts tasks already in progress', () => {
  const running = [task('r1', { status: 'in-progress', routing: {}, lease: { agent: 'x', expiresAt: '2026-11-21T11:00:00.000Z', sessionId: 's' } })];
  const ready = [task('t1', { routing: { agent: 'dev2' } }), task('t2', { routing: { agent: 'dev' } }), task('t3', { routing: { agent: 'dev' } })];
  assert.equal(brief(plan(snap(ready, running), ctx({ maxConcurrentDispatches: 2 }))), ['t1>dev2:command', 't2:concurrency', 't3:concurrency']);
});

order('a task backing off after a failed dispatch waits until nextAttemptAt, and leaves its agent free for others', () => {
  const ready = [task('t1', { dispatchFailures: 1, nextAttemptAt: '2026-11-21T10:00:05.000Z' }), task('t2', { dispatchFailures: 2, nextAttemptAt: '2026-11-21T10:00:00.000Z' }), task('t3')];
  const actions = plan(snap(ready), ctx());
  assert.equal(brief(actions), ['t1:backoff', 't2>dev:command', 't3>dev:command']);
  assert.equal(actions[0], { kind: 'hold', taskId: 't1', reason: 'backoff', detail: '1 failed dispatch; next attempt at 2026-11-21T10:00:05.000Z', until: '2026-11-21T10:00:05.000Z' });
  assert.equal(brief(plan(snap(ready), ctx({ now: new Date('2026-11-21T10:00:05.000Z') }))), ['t1>dev:command', 't2>dev:command', 't3:agent-busy']);
});

order('maxDispatchesPerDaemon counts only the leases this daemon granted; the global limit counts every lease', () => {
  const lease = (host: string, pid: number) => ({ agent: 'x', expiresAt: '2026-11-21T11:00:00.000Z', sessionId: `s-${host}`, host, pid });
  const running = [task('r1', { status: 'in-progress', lease: lease('host-a', 1) }), task('r2', { status: 'in-progress', lease: lease('host-b', 2) })];
  const ready = [task('t1'), task('t2'), task('t3')];
  const perDaemon = { limit: 2, owner: { host: 'host-a', pid: 1 } };
  assert.equal(brief(plan(snap(ready, running), ctx({ maxConcurrentDispatches: 10, perDaemon }))), ['t1>dev:command', 't2:concurrency', 't3:concurrency']);
  assert.equal(brief(plan(snap(ready, running), ctx({ maxConcurrentDispatches: 10, perDaemon: { ...perDaemon, owner: { host: 'host-c', pid: 3 } } }))), ['t1>dev:command', 't2>dev:command', 't3:agent-busy']);
  assert.equal(brief(plan(snap(ready, running), ctx({ maxConcurrentDispatches: 3, perDaemon: { ...perDaemon, limit: 5 } }))), ['t1>dev:command', 't2:concurrency', 't3:concurrency']);
  const held = plan(snap(ready, running), ctx({ maxConcurrentDispatches: 10, perDaemon }))[1] as { detail: string };
  assert.is(held.detail, '2 of 2 dispatches of this daemon in progress (maxDispatchesPerDaemon)');
});

order('dependencies must all be done', () => {
  const ready = [task('t1', { dependsOn: ['a', 'b'] }), task('t2', { dependsOn: ['a'] })];
  assert.equal(brief(plan(snap(ready, [], ['a']), ctx())), ['t1:dependencies', 't2>dev:command']);
});

order('an invalid org chart with none loaded holds every ready task with reason org-chart, naming it; leases still expire', () => {
  const old = task('r1', { status: 'in-progress', lease: { agent: 'dev2', expiresAt: '2026-11-21T09:59:59.000Z', sessionId: 's1' } });
  const ready = [task('t1'), task('t2', { dependsOn: ['a'] })];
  const actions = plan(snap(ready, [old]), ctx({ org: null, orgProblem: 'org chart org/org-chart.yaml is invalid (1 problem: agents[0].id: required)' }));
  assert.equal(brief(actions), ['r1:expire', 't1:org-chart', 't2:org-chart']);
  const hold = actions[1] as Extract<ReturnType<typeof plan>[number], { kind: 'hold' }>;
  assert.match(hold.detail, /org-chart\.yaml is invalid/);
});

order('expired leases are expired and free their slots', () => {
  const old = task('r1', { status: 'in-progress', lease: { agent: 'dev2', expiresAt: '2026-11-21T09:59:59.000Z', sessionId: 's1' } });
  const actions = plan(snap([task('t1', { routing: { agent: 'dev2' } })], [old]), ctx());
  assert.equal(brief(actions), ['r1:expire', 't1>dev2:command']);
  assert.equal(actions[0], { kind: 'expire', taskId: 'r1', agent: 'dev2', sessionId: 's1', expiredAt: '2026-11-21T09:59:59.000Z' });
});

order('a task at the failure limit is deadlettered, not dispatched', () => {
  assert.equal(brief(plan(snap([task('t1', { dispatchFailures: 3 })]), ctx())), ['t1:deadletter']);
});

const routes = suite('engine.plan routing and adapters');

routes('routes by role, team and tags, least busy first; inactive and unknown agents hold', () => {
  const busy = [task('r1', { status: 'in-progress', lease: { agent: 'dev2', expiresAt: '2026-11-21T11:00:00.000Z', sessionId: 's' } })];
  const ready = [
    task('t1', { routing: { role: 'reviewer' } }),
    task('t2', { routing: { team: 'core' } }),
    task('t3', { routing: { tags: ['ts'] } }),
    task('t4', { routing: { agent: 'off' } }),
    task('t5', { routing: {} }),
  ];
  assert.equal(brief(plan(snap(ready, busy), ctx({ maxConcurrentDispatches: 9 }))), ['t1:agent-busy', 't2>dev:command', 't3>dev:command', 't4:no-route', 't5:no-route']);
});

routes('gateway agents follow the mode', () => {
  const ready = [task('t1', { routing: { agent: 'gw' } })];
  assert.equal(brief(plan(snap(ready), ctx({ mode: 'booting' }))), ['t1:booting']);
  assert.equal(brief(plan(snap(ready), ctx({ mode: 'plugin' }))), ['t1:no-plugin-attached']);
  assert.equal(brief(plan(snap(ready), ctx({ mode: 'plugin', pluginAttached: true }))), ['t1>gw:plugin']);
  assert.equal(brief(plan(snap(ready), ctx())), ['t1>gw:standalone']);
  assert.equal(brief(plan(snap(ready), ctx({ pluginAttached: true }))), ['t1>gw:plugin'], 'an attached plugin is used in standalone mode too');
  assert.equal(brief(plan(snap(ready), ctx({ gatewayConfigured: false }))), ['t1:no-gateway']);
  assert.equal(brief(plan(snap([task('t2')]), ctx({ mode: 'booting' }))), ['t2>dev:command']);
});

routes('without an org chart routing.agent is taken as given', () => {
  assert.equal(brief(plan(snap([task('t1', { routing: { agent: 'anyone' } }), task('t2', { routing: { role: 'x' } })]), ctx({ org: null }))), ['t1>anyone:standalone', 't2:no-route']);
});

order.run();
routes.run();
