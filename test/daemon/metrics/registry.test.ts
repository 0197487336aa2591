import { request } from 'node:http';
import { rmSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { completingAgent, quittingAgent, sleepingAgent, writeOrg } from '../../helpers/agents.js';
import { call, closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { freePort } from '../../helpers/net.js';
import { parsePrometheus, valueOf, type Scrape } from '../../helpers/prometheus.js';
import { cleanRoots, fixedClock, tempRoot, within } from '../../helpers/root.js';

const FAST = { bootWindowMs: 200, pollIntervalMs: 150, spawnTimeoutMs: 1500, retryBackoffMs: [100] };

/** `GET /metrics` over the daemon's socket, parsed. */
async function scrape(root: string): Promise<Scrape> {
  const { status, body, headers } = await call(root, 'GET', '/metrics');
  assert.is(status, 200, String(body));
  assert.match(String(headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return parsePrometheus(String(body));
}

async function dispatch(root: string, params: Record<string, unknown>): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { brief: 'Do it.', ...params },
  });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

/** A plain HTTP request to 127.0.0.1:port: status, content type and body. */
function fetchPort(
  port: number,
  method: string,
  path: string,
): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => void (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const metrics = suite('daemon.metrics');
metrics.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

metrics('a scrape on the socket parses, with every status, the process metrics and zeroed counters', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const store = createStore({ root });
  await store.create({ title: 'One', status: 'backlog', createdBy: 'test' });
  await within(
    15_000,
    async () => valueOf(await scrape(root), 'svc_tasks', { status: 'backlog' }) === 1,
    'backlog counted',
  );
  const first = await scrape(root);
  for (const status of ['backlog', 'ready', 'in-progress', 'blocked', 'done', 'deadletter', 'cancelled']) {
    assert.ok(valueOf(first, 'svc_tasks', { status }) !== undefined, `svc_tasks{status="${status}"}`);
  }
  assert.is(first.types.get('svc_tasks'), 'gauge');
  assert.is(first.types.get('svc_dispatches_total'), 'counter');
  assert.is(first.types.get('svc_dispatch_latency_seconds'), 'histogram');
  assert.is(valueOf(first, 'svc_deadletters_total'), 0);
  assert.is(valueOf(first, 'svc_lease_expiries_total'), 0);
  assert.is(valueOf(first, 'svc_event_log_append_failures_total'), 0);
  assert.is(valueOf(first, 'svc_plugins_attached'), 0);
  assert.is(valueOf(first, 'svc_daemon_mode', { mode: 'standalone' }), 1);
  assert.ok((valueOf(first, 'process_resident_memory_bytes') ?? 0) > 0, 'default process metrics');
  assert.ok(first.types.has('nodejs_heap_size_used_bytes'));
});

metrics(
  'counters move as tasks are dispatched and done: dispatches, moves, the status gauges and the latency histogram',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }], aof: { daemon: FAST } });
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const before = await scrape(root);
    assert.is(valueOf(before, 'svc_dispatches_total', { adapter: 'command' }), undefined);
    await dispatch(root, { title: 'First', agent: 'dev' });
    await dispatch(root, { title: 'Second', agent: 'dev' });
    const after = await within(
      20_000,
      async () => {
        const now = await scrape(root);
        return valueOf(now, 'svc_tasks', { status: 'done' }) === 2 && now;
      },
      'two tasks done',
    );
    assert.is(valueOf(after, 'svc_dispatches_total', { adapter: 'command' }), 2);
    assert.is(valueOf(after, 'svc_task_moves_total', { to: 'done' }), 2);
    assert.is(valueOf(after, 'svc_task_moves_total', { to: 'in-progress' }), 2);
    assert.is(valueOf(after, 'svc_tasks', { status: 'ready' }), 0);
    assert.is(valueOf(after, 'svc_dispatch_latency_seconds_count', { adapter: 'command' }), 2);
    assert.is(valueOf(after, 'svc_dispatch_latency_seconds_bucket', { adapter: 'command', le: '+Inf' }), 2);
    assert.ok((valueOf(after, 'svc_dispatch_latency_seconds_sum', { adapter: 'command' }) ?? -1) >= 0);
    assert.is(valueOf(after, 'svc_ready_oldest_age_seconds'), 0);
    assert.is(after.types.get('svc_dir_fsyncs_total'), 'counter');
    const syncs = (scrape: Scrape) => valueOf(scrape, 'svc_dir_fsyncs_total') ?? 0;
    assert.ok(syncs(after) > syncs(before), `directory fsyncs ${syncs(before)} -> ${syncs(after)}`);
  },
);

metrics('failed dispatches and a deadletter are counted, by reason', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: quittingAgent() }], aof: { daemon: FAST } });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  await dispatch(root, { title: 'Doomed', agent: 'dev' });
  const after = await within(
    20_000,
    async () => {
      const now = await scrape(root);
      return (
        valueOf(now, 'svc_deadletters_total') === 1 && valueOf(now, 'svc_tasks', { status: 'deadletter' }) === 1 && now
      ); // the event's counter may run ahead of the index
    },
    'a deadletter counted and the task in deadletter/',
  );
  assert.is(valueOf(after, 'svc_dispatch_failures_total', { reason: 'ended_without_completion' }), 3);
  assert.is(valueOf(after, 'svc_dispatches_total', { adapter: 'command' }), 3);
});

metrics('an expired lease is counted; in-progress tasks and lease ages show by agent', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: sleepingAgent(1500) }],
    aof: { daemon: { ...FAST, defaultLeaseTtlMs: 400 } },
  });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  await dispatch(root, { title: 'Slow', agent: 'dev' });
  const running = await within(
    15_000,
    async () => {
      const now = await scrape(root);
      return valueOf(now, 'svc_in_progress_tasks', { agent: 'dev' }) === 1 && now;
    },
    'one in progress for dev',
  );
  assert.ok((valueOf(running, 'svc_lease_oldest_age_seconds', { agent: 'dev' }) ?? -1) >= 0);
  assert.ok((valueOf(running, 'svc_lease_soonest_expiry_seconds', { agent: 'dev' }) ?? 99) <= 0.4);
  await within(
    15_000,
    async () => (valueOf(await scrape(root), 'svc_lease_expiries_total') ?? 0) >= 1,
    'a lease expiry counted',
  );
});

metrics(
  'the oldest ready task age follows the clock; a task ready before the start counts from its last update',
  async () => {
    const root = tempRoot();
    const clock = fixedClock('2026-11-21T10:00:00.000Z');
    await createStore({ root, clock }).create({ title: 'Waiting', status: 'ready', createdBy: 'test' });
    clock.advance(90_000);
    await startTestDaemon(root, { tools: TOOLS, schedule: false, clock });
    assert.is(valueOf(await scrape(root), 'svc_ready_oldest_age_seconds'), 90);
    clock.advance(10_000);
    assert.is(valueOf(await scrape(root), 'svc_ready_oldest_age_seconds'), 100);
  },
);

metrics('a failed event append is counted and its lines show as pending', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const { events } = toPaths(root);
  rmSync(events, { recursive: true, force: true });
  writeFileSync(events, 'not a directory\n');
  await daemon.store.create({ title: 'Unlogged', status: 'backlog', createdBy: 'test' });
  const after = await scrape(root);
  assert.ok((valueOf(after, 'svc_event_log_append_failures_total') ?? 0) >= 1);
  assert.ok((valueOf(after, 'svc_event_log_pending_lines') ?? 0) >= 1);
  rmSync(events);
});

metrics('the health port serves GET /metrics with the same families; another method is refused', async () => {
  const root = tempRoot();
  const port = await freePort();
  await startTestDaemon(root, { tools: TOOLS, schedule: false, healthPort: port });
  const answer = await fetchPort(port, 'GET', '/metrics');
  assert.is(answer.status, 200);
  assert.match(answer.type, /^text\/plain; version=0\.0\.4/);
  const overPort = parsePrometheus(answer.text);
  const overSocket = await scrape(root);
  assert.equal([...overPort.types.keys()].sort(), [...overSocket.types.keys()].sort());
  assert.is((await fetchPort(port, 'POST', '/metrics')).status, 404);
  assert.is((await fetchPort(port, 'GET', '/health')).status, 200);
});

metrics.run();
