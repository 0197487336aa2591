import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  describeRoutes,
  eventPath,
  HEALTH_PORT_ROUTES,
  healthUrl,
  HOOK_NAMES,
  metricsPath,
  ROUTES,
  spawnResultPath,
  spawnStopPath,
  taskChangesPath,
  tasksPath,
  toRouteLabel,
} from '../../../lib/net/protocol/routes.js';

const paths = suite('net.protocol.paths');

paths('a spawn id is encoded into its path, so it stays one segment', () => {
  assert.is(spawnResultPath('run-1'), '/v1/spawns/run-1/result');
  assert.is(spawnStopPath('a/b c?d'), '/v1/spawns/a%2Fb%20c%3Fd/stop');
});

paths('each hook name has its event path under /v1/event/', () => {
  assert.equal(HOOK_NAMES.map(eventPath), [
    '/v1/event/session-end',
    '/v1/event/agent-end',
    '/v1/event/before-compaction',
    '/v1/event/message-received',
  ]);
});

paths('the listing, the change feed, the metrics and the health port build their paths and queries', () => {
  assert.is(tasksPath(new URLSearchParams()), '/v1/tasks');
  assert.is(tasksPath(new URLSearchParams({ status: 'ready', tags: 'a,b' })), '/v1/tasks?status=ready&tags=a%2Cb');
  assert.is(taskChangesPath(-1, 0), '/v1/tasks/changes?after=-1&waitMs=0');
  assert.is(metricsPath(), '/metrics');
  assert.is(metricsPath('json'), '/metrics?format=json');
  assert.is(healthUrl('127.0.0.1', 7070), 'http://127.0.0.1:7070/health');
  assert.is(HEALTH_PORT_ROUTES.metrics, ROUTES.metrics);
});

const help = suite('net.protocol.describeRoutes');

help('lists every route with its method, {parameters}, the hook names and the query keys', () => {
  assert.is(
    describeRoutes(),
    'GET /healthz, GET /status, GET /metrics, POST /v1/tool/invoke, POST /v1/tool/batch, POST /v1/event/{session-end|agent-end|before-compaction|message-received}, GET /v1/spawns/wait, POST /v1/spawns/{id}/result, GET /v1/spawns/{id}/stop, GET /v1/tasks?status=&statuses=&tags=&project=&team=&priority=&parent=&since=&text=, GET /v1/tasks/changes?after=&waitMs=, POST /v1/scheduler/tick, GET /v1/scheduler/plan, POST /v1/web, POST /v1/notify/{retry|test}',
  );
});

help('describes a given list, and labels one route by method and path', () => {
  assert.is(describeRoutes([HEALTH_PORT_ROUTES.health, ROUTES.spawnStop]), 'GET /health, GET /v1/spawns/{id}/stop');
  assert.is(toRouteLabel(ROUTES.taskChanges), 'GET /v1/tasks/changes');
});

paths.run();
help.run();
