// Notifications end to end: a real daemon, a real HTTP receiver on 127.0.0.1. The alerts an operator must act on
// (a deadletter, an approval gate, an SLA violation) each arrive once, signed; a receiver that fails, then hangs,
// then answers gets its delivery (the same delivery id every time) and the scheduler does not wait for it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/commit/store.js';
import { readEvents } from '../../lib/store/events/log.js';
import { TOOLS } from '../../lib/tools/index.js';
import { completingAgent, quittingAgent } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { call, closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { startReceiver, type HttpReceiver } from '../helpers/http-receiver.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { assertSigned, bodyOf, SECRET, subscription, untilOutboxEmpty, writeNotifyOrg } from './notify-setup.js';

const flow = suite('e2e.notify');
let receiver: HttpReceiver;
flow.before.each(async () => {
  receiver = await startReceiver();
});
flow.after.each(async () => {
  await closeDaemons();
  await receiver.close();
  cleanRoots();
});

async function dispatch(root: string, params: Record<string, unknown>): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { brief: 'Do it.', ...params },
  });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

flow('a deadletter, an approval gate and an SLA violation each arrive once, signed, with what to do', async () => {
  const root = tempRoot();
  writeNotifyOrg(root, {
    agents: [
      { id: 'dev', name: 'Dev', command: quittingAgent() },
      { id: 'impl', name: 'Impl', command: completingAgent('implemented', { outcome: 'complete' }) },
      { id: 'watcher', name: 'Watcher' },
    ],
    org: { roles: { implementer: { agents: ['impl'] } } },
    notify: [
      subscription({
        id: 'ops-hook',
        webhook: receiver.url,
        secretEnv: 'SVC_NOTIFY_SECRET',
        events: ['task.deadletter', 'gate.awaiting', 'sla.violation'],
      }),
    ],
    aof: { projects: { default: { sla: { alerting: { rateLimitMinutes: 60 } } } } },
  });
  mkdirSync(`${root}/org/workflows`, { recursive: true });
  writeFileSync(
    `${root}/org/workflows/ship.yaml`,
    'workflow:\n  name: ship\n  gates:\n    - id: implement\n      role: implementer\n    - id: sign\n      approval: true\n',
  );
  const store = createStore({ root });
  const late = (
    await store.create({
      title: 'Late \u001b[31mred',
      status: 'ready',
      routing: { agent: 'watcher' },
      createdBy: 'test',
      sla: { maxInProgressMs: 300 },
    })
  ).task.id;
  assert.is((await svc(root, 'task', 'claim', late, '--agent', 'watcher')).code, 0);
  await startTestDaemon(root, {
    tools: TOOLS,
    env: { ...process.env, SVC_NOTIFY_SECRET: SECRET },
    stderr: () => undefined,
  });
  const doomed = await dispatch(root, { title: 'Doomed', agent: 'dev' });
  const created = await svc(root, 'task', 'create', 'Ship it', '--workflow', 'ship', '--json');
  const shipped = (JSON.parse(created.stdout) as { id: string }).id;
  assert.is((await svc(root, 'task', 'promote', shipped)).code, 0);
  const requests = await receiver.waitFor(3, 30_000);
  await untilOutboxEmpty(root);
  const byType = new Map(requests.map((r) => [bodyOf(r).event.type, r]));
  assert.equal([...byType.keys()].sort(), ['gate.awaiting', 'sla.violation', 'task.deadletter']);
  for (const request of requests) {
    assertSigned(request);
    const body = bodyOf(request);
    assert.is(body.version, 1);
    assert.is(body.subscription, 'ops-hook');
    assert.is(request.headers['x-svc-delivery'], body.deliveryId);
    assert.match(body.deliveryId, /^[0-9a-f-]{36}$/);
    assert.is(request.headers['x-svc-event'], body.event.type);
    assert.ok(body.why.length > 0, 'why it matters');
  }
  const dead = bodyOf(byType.get('task.deadletter')!);
  assert.is(dead.task?.id, doomed);
  assert.is(dead.task?.title, 'Doomed');
  assert.is(dead.event.payload.failureCount, 3);
  assert.match(dead.action ?? '', `svc task resurrect ${doomed}`);
  const gate = bodyOf(byType.get('gate.awaiting')!);
  assert.is(gate.task?.id, shipped);
  assert.is(gate.event.payload.gate, 'sign');
  assert.match(gate.action ?? '', `svc task approve ${shipped}`);
  const sla = bodyOf(byType.get('sla.violation')!);
  assert.is(sla.task?.id, late);
  assert.is(sla.task?.agent, 'watcher');
  assert.not.match(sla.task?.title ?? '', '\u001b', 'the title is escaped');
  // each event of the log was offered once: the daemon's log holds one of each, the receiver got one of each
  assert.is((await readEvents(root, { type: 'task.deadletter' })).length, 1);
  assert.is(receiver.requests.length, 3);
  // the outcome is counted just after the delivered file is removed
  const metrics = await within(
    5000,
    async () => {
      const text = (await call(root, 'GET', '/metrics')).body as string;
      return text.includes('svc_notify_deliveries_total{subscription="ops-hook",outcome="delivered"} 3') ? text : null;
    },
    'three deliveries counted',
  );
  assert.match(metrics, 'svc_notify_outbox_depth{state="pending"} 0');
});

flow(
  'failing three times, then hanging past the timeout, then 200: delivered with one id, dispatch never waits',
  async () => {
    const root = tempRoot();
    writeNotifyOrg(root, {
      agents: [{ id: 'impl', name: 'Impl', command: completingAgent() }],
      notify: [
        subscription({
          id: 'flaky',
          webhook: receiver.url,
          events: ['task.cancelled'],
          timeoutMs: 10_000, // the fourth attempt hangs this long while a task is dispatched
          retry: { initialMs: 50, maxMs: 200, giveUpAfterMs: 60_000 },
        }),
      ],
    });
    receiver.script({ status: 500 }, { status: 503 }, { status: 502 }, 'hang');
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const created = await svc(root, 'task', 'create', 'Cancel me', '--json');
    const cancelled = (JSON.parse(created.stdout) as { id: string }).id;
    assert.is((await svc(root, 'task', 'cancel', cancelled)).code, 0);
    await receiver.waitFor(4, 20_000); // the fourth hangs now
    const status = await svc(root, 'daemon', 'status');
    assert.match(status.stdout, 'Notifications: 1 subscription, 1 pending, 0 failed');
    assert.match(status.stdout, /subscription flaky FAILING \(3 failed attempts in a row: HTTP 502/);
    const before = Date.now();
    const work = await dispatch(root, { title: 'Meanwhile', agent: 'impl' });
    await within(
      5000,
      async () => (await readEvents(root, { taskId: work, type: 'task.dispatched' })).length > 0,
      'the dispatch while the receiver hangs',
    );
    const dispatchMs = Date.now() - before;
    assert.is(receiver.requests.length, 4, 'dispatched while the attempt still hangs');
    assert.ok(dispatchMs < 5000, `dispatched within the usual time (${dispatchMs} ms)`);
    const all = await receiver.waitFor(5, 30_000);
    await untilOutboxEmpty(root);
    const ids = new Set(all.map((r) => r.headers['x-svc-delivery']));
    assert.is(ids.size, 1, 'every attempt carries the same delivery id');
    assert.is(bodyOf(all[4]!).task?.id, cancelled);
    const after = await within(
      5000,
      async () => {
        const body = (await call(root, 'GET', '/status')).body as {
          notify?: { subscriptions: { lastOutcome: string }[] };
        };
        return body.notify?.subscriptions[0]?.lastOutcome === 'delivered' ? body : null;
      },
      'the delivery in /status',
    );
    assert.equal(after.notify?.subscriptions, [
      {
        id: 'flaky',
        kind: 'webhook',
        lastOutcome: 'delivered',
        lastError: 'no answer within 10000 ms',
        consecutiveFailures: 0,
        disabled: false,
        pending: 0,
        failed: 0,
      },
    ]);
  },
);

flow.run();
