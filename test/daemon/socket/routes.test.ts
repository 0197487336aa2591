import { existsSync, readFileSync, statSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../../lib/store/events/log.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { call, closeDaemons, gate, gates, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

type Err = { ok: false; error: { code: string; message: string; hint?: string } };

const routes = suite('daemon.routes');
routes.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

routes('GET /healthz answers 200 on a socket of mode 0600 inside a 0700 data directory', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root);
  const { status, body } = await call(root, 'GET', '/healthz');
  assert.is(status, 200);
  assert.equal(body, { ok: true });
  assert.is(statSync(daemon.paths.socket).mode & 0o777, 0o600);
  assert.is(statSync(daemon.paths.data).mode & 0o777, 0o700);
  assert.is(readFileSync(daemon.paths.pidFile, 'utf8').trim(), String(process.pid));
});

routes('GET /status reports version, pid, uptime, mode, plugins, task counts and the scheduler', async () => {
  const root = tempRoot();
  await createStore({ root }).create({ title: 'Counted', createdBy: 'test', status: 'ready' });
  await startTestDaemon(root, { version: '9.8.7' });
  const { status, body } = await call(root, 'GET', '/status');
  const s = body as Record<string, any>;
  assert.is(status, 200);
  assert.equal(
    [s.status, s.healthy, s.version, s.pid, s.mode],
    ['running', true, '9.8.7', process.pid, 'booting'],
    'no plugin yet: the boot window is open',
  );
  assert.type(s.uptimeMs, 'number');
  assert.equal(s.plugins, []);
  assert.is(s.tasks.byStatus.ready, 1);
  assert.is(s.tasks.byStatus.backlog, 0);
  assert.is(s.scheduler.lastPollAt, null, 'no poll yet');
  const ticked = await within(
    3000,
    async () => ((await call(root, 'GET', '/status')).body as Record<string, any>).scheduler.lastTickAt,
    'the first tick',
  );
  assert.match(String(ticked), /^\d{4}-\d\d-\d\dT/, 'the first tick runs at start');
});

routes('POST /v1/tool/invoke runs the tool and answers {ok:true, result}', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool: 'test_echo', params: { text: 'hi' } });
  assert.is(status, 200);
  assert.equal(body, { ok: true, result: { echo: 'hi' } });
});

routes('bad requests get their coded error and the daemon keeps serving', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  const cases: [string, string, unknown, number, string, RegExp][] = [
    ['POST', '/v1/tool/invoke', { tool: 'svc_nope', params: {} }, 404, 'unknown_tool', /Unknown tool "svc_nope"/],
    ['POST', '/v1/tool/invoke', { tool: 'test_echo', params: { text: 42 } }, 400, 'validation_error', /text/],
    [
      'POST',
      '/v1/tool/invoke',
      { tool: 'test_echo', params: { text: 'x', extra: 1 } },
      400,
      'validation_error',
      /extra/,
    ],
    ['POST', '/v1/tool/invoke', { params: {} }, 400, 'validation_error', /no `tool`/],
    ['POST', '/v1/tool/invoke', '{"tool": "test_echo",', 400, 'validation_error', /not valid JSON/],
    ['POST', '/v1/tool/invoke', '[1, 2]', 400, 'validation_error', /must be a JSON object; got an array/],
    ['POST', '/v1/tool/invoke', undefined, 400, 'validation_error', /empty body/],
    ['GET', '/nowhere', undefined, 404, 'not_found', /No route GET \/nowhere/],
    ['GET', '/v1/tool/invoke', undefined, 404, 'not_found', /No route GET/],
  ];
  for (const [method, path, body, httpStatus, code, message] of cases) {
    const res = await call(root, method, path, body);
    const err = res.body as Err;
    assert.is(res.status, httpStatus, `${method} ${path} ${JSON.stringify(body)}`);
    assert.is(err.ok, false);
    assert.is(err.error.code, code);
    assert.match(err.error.message, message);
    assert.ok(err.error.hint, `a hint for ${code}`);
  }
  assert.is((await call(root, 'GET', '/healthz')).status, 200);
});

routes('a 2 MB body is refused with 413 too_large', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  const big = JSON.stringify({ tool: 'test_echo', params: { text: 'x'.repeat(2 * 1024 * 1024) } });
  const res = await call(root, 'POST', '/v1/tool/invoke', big);
  assert.is(res.status, 413);
  assert.is((res.body as Err).error.code, 'too_large');
  assert.match((res.body as Err).error.message, /limit is 1048576/);
  assert.is(
    (await call(root, 'POST', '/v1/tool/invoke', { tool: 'test_echo', params: { text: 'still here' } })).status,
    200,
  );
});

routes('a tool that throws a plain error answers 500 internal and is logged', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root);
  const res = await call(root, 'POST', '/v1/tool/invoke', { tool: 'test_crash', params: {} });
  assert.is(res.status, 500);
  assert.equal((res.body as Err).error, { code: 'internal', message: 'boom' });
  await within(
    2000,
    () => readFileSync(daemon.paths.daemonLog, 'utf8').includes('request.failed'),
    'the failure in the log',
  );
});

routes('POST /v1/event/<name> accepts the four lifecycle events with 202 and logs them as events', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root);
  const heard: string[] = [];
  daemon.onHook((name, _payload, plugin) => heard.push(`${name} ${plugin}`));
  for (const name of ['session-end', 'agent-end', 'before-compaction', 'message-received']) {
    const res = await call(
      root,
      'POST',
      `/v1/event/${name}`,
      { sessionKey: 'agent:dev:svc-1' },
      { headers: { 'x-svc-plugin': 'gw' } },
    );
    assert.is(res.status, 202, name);
    assert.equal(res.body, { ok: true });
  }
  assert.equal(heard, ['session-end gw', 'agent-end gw', 'before-compaction gw', 'message-received gw']);
  const events = (await readEvents(root)).filter((e) => e.type.startsWith('plugin.'));
  assert.equal(
    events.map((e) => [e.type, e.actor, e.payload]),
    [
      ['plugin.session-end', 'gw', { sessionKey: 'agent:dev:svc-1' }],
      ['plugin.agent-end', 'gw', { sessionKey: 'agent:dev:svc-1' }],
      ['plugin.before-compaction', 'gw', { sessionKey: 'agent:dev:svc-1' }],
      ['plugin.message-received', 'gw', { sessionKey: 'agent:dev:svc-1' }],
    ],
  );
});

routes('an unknown event is 404 and a non-object payload 400', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  const unknown = await call(root, 'POST', '/v1/event/session-start', {});
  assert.is(unknown.status, 404);
  assert.is((unknown.body as Err).error.code, 'not_found');
  assert.match((unknown.body as Err).error.hint!, /session-end, agent-end/);
  const bad = await call(root, 'POST', '/v1/event/agent-end', '"text"');
  assert.is(bad.status, 400);
  assert.is((bad.body as Err).error.code, 'validation_error');
});

routes(
  "a body that is not JSON on /v1/event/<name> gets that event's own shape as its hint, not the tool envelope",
  async () => {
    const root = tempRoot();
    await startTestDaemon(root);
    for (const [name, field] of [
      ['agent-end', '"success": true'],
      ['session-end', '"reason"'],
      ['before-compaction', '"tokenCount"'],
      ['message-received', '"content"'],
    ]) {
      const res = await call(root, 'POST', `/v1/event/${name}`, 'not json');
      const { error } = res.body as Err;
      assert.is(res.status, 400, name);
      assert.match(error.message, /The request body is not valid JSON/);
      assert.ok(
        error.hint?.startsWith('Send a JSON object, for example {"sessionKey": "agent:dev:svc-TASK-2026-11-21-001"'),
        error.hint,
      );
      assert.ok(error.hint?.includes(field!), `${name}: ${error.hint}`);
      assert.not.match(error.hint!, /"tool"/);
    }
    const tool = await call(root, 'POST', '/v1/tool/invoke', 'not json');
    assert.match((tool.body as Err).error.hint!, /\{"tool": "svc_status", "params": \{\}\}/);
  },
);

routes('stopping: /healthz answers 503 while a tool call finishes, then pid and socket are gone', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root);
  gates.entered = gate();
  gates.wait = gate();
  const slow = call(root, 'POST', '/v1/tool/invoke', { tool: 'test_wait', params: {} });
  await gates.entered.promise;
  const closing = daemon.close();
  const health = await call(root, 'GET', '/healthz');
  assert.is(health.status, 503);
  assert.is((health.body as { reason: string }).reason, 'stopping');
  const refused = await call(root, 'POST', '/v1/tool/invoke', { tool: 'test_echo', params: { text: 'late' } });
  assert.is(refused.status, 503);
  assert.is((refused.body as Err).error.code, 'unavailable');
  gates.wait.open();
  assert.equal((await slow).body, { ok: true, result: { waited: true } });
  await closing;
  assert.not.ok(existsSync(daemon.paths.socket));
  assert.not.ok(existsSync(daemon.paths.pidFile));
  assert.match(readFileSync(daemon.paths.daemonLog, 'utf8'), /info daemon\.stopped/);
  assert.equal(
    (await readEvents(root)).filter((e) => e.type.startsWith('daemon.')).map((e) => e.type),
    ['daemon.started', 'daemon.stopped'],
  );
});

routes.run();
