import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { plan } from '../../lib/engine/plan.js';
import { brief, ctx, snap, task } from './plan-fixture.js';

const order = suite('engine.plan order and limits');

order('dispatches by priority, then age, within the agent and global limits', () => {
  const ready = [
    task('t1'),
    task('t2', { priority: 'critical' }),
    task('t3', { priority: 'low' }),
    task('t4', { priority: 'high' }),
  ];
  assert.equal(brief(plan(snap(ready), ctx())), ['t2>dev:command', 't4>dev:command', 't1:agent-busy', 't3:agent-busy']);
});

order(
  'a task whose previous run is still alive is held previous-run-ending, and its slot goes to the next task',
  () => {
    const ready = [task('t1'), task('t2'), task('t3')];
    const snapshot = {
      ...snap(ready),
      previousRun: (id: string) => (id === 't1' ? 'the local agent of session s (pid 42) got SIGTERM' : null),
    };
    const actions = plan(snapshot, ctx());
    assert.equal(brief(actions), ['t1:previous-run-ending', 't2>dev:command', 't3>dev:command']);
    assert.equal(actions[0], {
      kind: 'hold',
      taskId: 't1',
      reason: 'previous-run-ending',
      detail: 'the local agent of session s (pid 42) got SIGTERM',
    });
  },
);

order('the global limit counts tasks already in progress', () => {
  const running = [
    task('r1', {
      status: 'in-progress',
      routing: {},
      lease: { agent: 'x', expiresAt: '2026-11-21T11:00:00.000Z', sessionId: 's' },
    }),
  ];
  const ready = [
    task('t1', { routing: { agent: 'dev2' } }),
    task('t2', { routing: { agent: 'dev' } }),
    task('t3', { routing: { agent: 'dev' } }),
  ];
  assert.equal(brief(plan(snap(ready, running), ctx({ maxConcurrentDispatches: 2 }))), [
    't1>dev2:command',
    't2:concurrency',
    't3:concurrency',
  ]);
});

order(
  'a task backing off after a failed dispatch waits until nextAttemptAt, and leaves its agent free for others',
  () => {
    const ready = [
      task('t1', { dispatchFailures: 1, nextAttemptAt: '2026-11-21T10:00:05.000Z' }),
      task('t2', { dispatchFailures: 2, nextAttemptAt: '2026-11-21T10:00:00.000Z' }),
      task('t3'),
    ];
    const actions = plan(snap(ready), ctx());
    assert.equal(brief(actions), ['t1:backoff', 't2>dev:command', 't3>dev:command']);
    assert.equal(actions[0], {
      kind: 'hold',
      taskId: 't1',
      reason: 'backoff',
      detail: '1 failed dispatch; next attempt at 2026-11-21T10:00:05.000Z',
      until: '2026-11-21T10:00:05.000Z',
    });
    assert.equal(brief(plan(snap(ready), ctx({ now: new Date('2026-11-21T10:00:05.000Z') }))), [
      't1>dev:command',
      't2>dev:command',
      't3:agent-busy',
    ]);
  },
);

order('maxDispatchesPerDaemon counts only the leases this daemon granted; the global limit counts every lease', () => {
  const lease = (host: string, pid: number) => ({
    agent: 'x',
    expiresAt: '2026-11-21T11:00:00.000Z',
    sessionId: `s-${host}`,
    host,
    pid,
  });
  const running = [
    task('r1', { status: 'in-progress', lease: lease('host-a', 1) }),
    task('r2', { status: 'in-progress', lease: lease('host-b', 2) }),
  ];
  const ready = [task('t1'), task('t2'), task('t3')];
  const perDaemon = { limit: 2, owner: { host: 'host-a', pid: 1 } };
  assert.equal(brief(plan(snap(ready, running), ctx({ maxConcurrentDispatches: 10, perDaemon }))), [
    't1>dev:command',
    't2:concurrency',
    't3:concurrency',
  ]);
  assert.equal(
    brief(
      plan(
        snap(ready, running),
        ctx({ maxConcurrentDispatches: 10, perDaemon: { ...perDaemon, owner: { host: 'host-c', pid: 3 } } }),
      ),
    ),
    ['t1>dev:command', 't2>dev:command', 't3:agent-busy'],
  );
  assert.equal(
    brief(plan(snap(ready, running), ctx({ maxConcurrentDispatches: 3, perDaemon: { ...perDaemon, limit: 5 } }))),
    ['t1>dev:command', 't2:concurrency', 't3:concurrency'],
  );
  const held = plan(snap(ready, running), ctx({ maxConcurrentDispatches: 10, perDaemon }))[1] as { detail: string };
  assert.is(held.detail, '2 of 2 dispatches of this daemon in progress (maxDispatchesPerDaemon)');
});

order('dependencies must all be done', () => {
  const ready = [task('t1', { dependsOn: ['a', 'b'] }), task('t2', { dependsOn: ['a'] })];
  assert.equal(brief(plan(snap(ready, [], ['a']), ctx())), ['t1:dependencies', 't2>dev:command']);
});

order(
  'an invalid org chart with none loaded holds every ready task with reason org-chart, naming it; leases still expire',
  () => {
    const old = task('r1', {
      status: 'in-progress',
      lease: { agent: 'dev2', expiresAt: '2026-11-21T09:59:59.000Z', sessionId: 's1' },
    });
    const ready = [task('t1'), task('t2', { dependsOn: ['a'] })];
    const actions = plan(
      snap(ready, [old]),
      ctx({ org: null, orgProblem: 'org chart org/org-chart.yaml is invalid (1 problem: agents[0].id: required)' }),
    );
    assert.equal(brief(actions), ['r1:expire', 't1:org-chart', 't2:org-chart']);
    const hold = actions[1] as Extract<ReturnType<typeof plan>[number], { kind: 'hold' }>;
    assert.match(hold.detail, /org-chart\.yaml is invalid/);
  },
);

order('expired leases are expired and free their slots', () => {
  const old = task('r1', {
    status: 'in-progress',
    lease: { agent: 'dev2', expiresAt: '2026-11-21T09:59:59.000Z', sessionId: 's1' },
  });
  const actions = plan(snap([task('t1', { routing: { agent: 'dev2' } })], [old]), ctx());
  assert.equal(brief(actions), ['r1:expire', 't1>dev2:command']);
  assert.equal(actions[0], {
    kind: 'expire',
    taskId: 'r1',
    agent: 'dev2',
    sessionId: 's1',
    expiredAt: '2026-11-21T09:59:59.000Z',
  });
});

order('a task at the failure limit is deadlettered, not dispatched', () => {
  assert.equal(brief(plan(snap([task('t1', { dispatchFailures: 3 })]), ctx())), ['t1:deadletter']);
});

order.run();
