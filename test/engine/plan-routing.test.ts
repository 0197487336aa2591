import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { plan } from '../../lib/engine/plan.js';
import { brief, ctx, snap, task } from './plan-fixture.js';

const routes = suite('engine.plan routing and adapters');

routes('routes by role, team and tags, least busy first; inactive and unknown agents hold', () => {
  const busy = [
    task('r1', {
      status: 'in-progress',
      lease: { agent: 'dev2', expiresAt: '2026-11-21T11:00:00.000Z', sessionId: 's' },
    }),
  ];
  const ready = [
    task('t1', { routing: { role: 'reviewer' } }),
    task('t2', { routing: { team: 'core' } }),
    task('t3', { routing: { tags: ['ts'] } }),
    task('t4', { routing: { agent: 'off' } }),
    task('t5', { routing: {} }),
  ];
  assert.equal(brief(plan(snap(ready, busy), ctx({ maxConcurrentDispatches: 9 }))), [
    't1:agent-busy',
    't2>dev:command',
    't3>dev:command',
    't4:no-route',
    't5:no-route',
  ]);
});

routes('gateway agents follow the mode', () => {
  const ready = [task('t1', { routing: { agent: 'gw' } })];
  assert.equal(brief(plan(snap(ready), ctx({ mode: 'booting' }))), ['t1:booting']);
  assert.equal(brief(plan(snap(ready), ctx({ mode: 'plugin' }))), ['t1:no-plugin-attached']);
  assert.equal(brief(plan(snap(ready), ctx({ mode: 'plugin', pluginAttached: true }))), ['t1>gw:plugin']);
  assert.equal(brief(plan(snap(ready), ctx())), ['t1>gw:standalone']);
  assert.equal(
    brief(plan(snap(ready), ctx({ pluginAttached: true }))),
    ['t1>gw:plugin'],
    'an attached plugin is used in standalone mode too',
  );
  assert.equal(brief(plan(snap(ready), ctx({ gatewayConfigured: false }))), ['t1:no-gateway']);
  assert.equal(brief(plan(snap([task('t2')]), ctx({ mode: 'booting' }))), ['t2>dev:command']);
});

routes('without an org chart routing.agent is taken as given', () => {
  assert.equal(
    brief(
      plan(
        snap([task('t1', { routing: { agent: 'anyone' } }), task('t2', { routing: { role: 'x' } })]),
        ctx({ org: null }),
      ),
    ),
    ['t1>anyone:standalone', 't2:no-route'],
  );
});

routes.run();
