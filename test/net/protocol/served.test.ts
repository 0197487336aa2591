import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DaemonResponse } from '../../../lib/daemon/instance/client.js';
import {
  describeRoutes,
  eventPath,
  HEADERS,
  notifyPath,
  ROUTES,
  spawnResultPath,
  spawnStopPath,
  taskChangesPath,
  type RouteName,
} from '../../../lib/net/protocol/routes.js';
import { call, closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

// A real daemon serves every route of the contract, and its answer to a request that matches none
// lists them, written from the contract.

type Err = { ok: false; error: { code: string; message: string; hint?: string } };

/** One request per route (a route added to the contract needs its line here). */
const PROBES: Record<RouteName, { path: string; body?: unknown; headers?: Record<string, string> }> = {
  healthz: { path: ROUTES.healthz.path },
  status: { path: ROUTES.status.path },
  metrics: { path: ROUTES.metrics.path },
  toolInvoke: { path: ROUTES.toolInvoke.path, body: { tool: 'test_echo', params: { text: 'hi' } } },
  toolBatch: { path: ROUTES.toolBatch.path, body: { tool: 'test_echo', batch: [{ params: { text: 'hi' } }] } },
  event: {
    path: eventPath('agent-end'),
    body: { sessionKey: 'agent:dev:svc-1' },
    headers: { [HEADERS.plugin]: 'probe' },
  },
  spawnWait: { path: ROUTES.spawnWait.path },
  spawnResult: { path: spawnResultPath('no-such-spawn'), body: { ok: true } },
  spawnStop: { path: spawnStopPath('no-such-spawn') },
  tasks: { path: ROUTES.tasks.path },
  taskChanges: { path: taskChangesPath(-1, 0) },
  schedulerTick: { path: ROUTES.schedulerTick.path },
  schedulerPlan: { path: ROUTES.schedulerPlan.path },
  web: { path: ROUTES.web.path, body: { port: -1 } },
  notify: { path: notifyPath('test'), body: { subscription: 'no-such-subscription' } },
};

const served = suite('net.protocol: the daemon serves the contract');
served.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

served('every route of the contract is registered: none answers the daemon\'s "No route"', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  const unserved: string[] = [];
  for (const [name, route] of Object.entries(ROUTES) as [RouteName, (typeof ROUTES)[RouteName]][]) {
    const probe = PROBES[name];
    const res = await call(root, route.method, probe.path, probe.body, probe.headers ? { headers: probe.headers } : {});
    if (isNoRoute(res)) unserved.push(`${route.method} ${probe.path}`);
  }
  assert.equal(unserved, []);
});

served('the probe tells an unregistered route: a route asked with the other method is "No route"', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  assert.ok(isNoRoute(await call(root, 'GET', ROUTES.web.path)));
  assert.ok(isNoRoute(await call(root, 'POST', ROUTES.tasks.path, {})));
});

served("a request that matches no route is answered with the contract's routes as the hint", async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  const res = await call(root, 'GET', '/nowhere');
  const hint = (res.body as Err).error.hint ?? '';
  assert.is(hint, `Routes: ${describeRoutes()}.`);
  for (const route of Object.values(ROUTES)) {
    const shown = `${route.method} ${route.path.replace(/:(\w+)/, (_match, name: string) => `{${'choices' in route ? route.choices.join('|') : name}}`)}`;
    assert.ok(hint.includes(shown), `the hint lists ${shown}: ${hint}`);
  }
});

served.run();

// --- internal ---

function isNoRoute(res: DaemonResponse): boolean {
  const error = (res.body as Err | null)?.error;
  return res.status === 404 && error?.code === 'not_found' && error.message.startsWith('No route');
}
