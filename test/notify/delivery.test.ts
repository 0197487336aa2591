import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listOutbox } from '../../lib/notify/outbox.js';
import { startReceiver } from '../helpers/http-receiver.js';
import { cleanRoots, within } from '../helpers/root.js';
import { deadletter, eventOf, notifierOf, outboxFiles, subscription, taskOf } from './setup.js';

const delivery = suite('notify delivery');
delivery.after.each(cleanRoots);

delivery(
  'failing three times, then hanging past the timeout, then 200: delivered once it recovers, one delivery id',
  async () => {
    const receiver = await startReceiver();
    receiver.script({ status: 500 }, { status: 502 }, { status: 503, body: 'busy' }, 'hang');
    const sub = subscription({ id: 'ops', webhook: receiver.url, timeoutMs: 1_000 });
    const { notifier, paths, outcomes } = notifierOf([sub]);
    notifier.start();
    try {
      await notifier.offer(deadletter('T-1'), taskOf('T-1'));
      const requests = await receiver.waitFor(5);
      await within(10_000, () => outcomes.some((o) => o.outcome === 'delivered'), 'the delivery');
      const ids = new Set(requests.map((r) => r.headers['x-svc-delivery']));
      assert.is(ids.size, 1);
      assert.equal(
        outcomes.map((o) => o.outcome),
        ['retrying', 'retrying', 'retrying', 'retrying', 'delivered'],
      );
      assert.match(outcomes[2]!.error!, /HTTP 503: busy/);
      assert.match(outcomes[3]!.error!, /no answer within 1000 ms/);
      assert.equal(outboxFiles(paths), []);
      assert.is(receiver.requests.length, 5);
    } finally {
      await notifier.stop();
      await receiver.close();
    }
  },
);

delivery(
  'a receiver that never answers: failed/ after giveUpAfterMs, logged once; retry sends it once it is back',
  async () => {
    const receiver = await startReceiver();
    receiver.fallback('hang');
    const sub = subscription({
      id: 'ops',
      webhook: receiver.url,
      timeoutMs: 100,
      retry: { initialMs: 20, maxMs: 50, giveUpAfterMs: 400 },
    });
    const { notifier, paths, logs } = notifierOf([sub]);
    notifier.start();
    try {
      await notifier.offer(deadletter('T-1'), taskOf('T-1'));
      await within(
        10_000,
        () => outboxFiles(paths, true).length === 1 && outboxFiles(paths).length === 0,
        'the delivery moved to failed/',
      );
      assert.equal(outboxFiles(paths), []);
      const [failed] = await listOutbox(paths, { failed: true });
      assert.match(failed!.lastError!, /no answer within 100 ms/);
      assert.ok(failed!.attempts >= 2);
      assert.is(logs.filter((l) => l.includes('failed after')).length, 1);
      assert.equal(notifier.depth(), { pending: 0, failed: 1, oldestPendingMs: null });
      assert.is(notifier.status()[0]!.failed, 1);
      const tried = receiver.requests.length;
      receiver.fallback({ status: 204 });
      assert.is(await notifier.retry('all'), 1);
      await receiver.waitFor(tried + 1);
      await within(10_000, () => outboxFiles(paths).length === 0, 'the delivery sent');
      assert.equal(outboxFiles(paths, true), []);
      assert.is(receiver.requests.at(-1)!.headers['x-svc-delivery'], failed!.notification.deliveryId);
      assert.is(notifier.status()[0]!.failed, 0);
    } finally {
      await notifier.stop();
      await receiver.close();
    }
  },
);

delivery(
  '410 Gone disables the subscription, across a restart, until the chart changes; its deliveries wait',
  async () => {
    const receiver = await startReceiver();
    receiver.script({ status: 410 });
    const sub = subscription({ id: 'gone', webhook: receiver.url });
    const first = notifierOf([sub]);
    first.notifier.start();
    await first.notifier.offer(deadletter('T-1'), taskOf('T-1'));
    await within(10_000, () => first.outcomes.some((o) => o.outcome === 'disabled'), 'the 410');
    assert.is(first.logs.filter((l) => /subscription gone is disabled/.test(l)).length, 1);
    await first.notifier.offer(deadletter('T-2'), taskOf('T-2'));
    first.notifier.kick();
    assert.is(first.notifier.status()[0]!.disabled, true);
    assert.is(first.notifier.status()[0]!.pending, 2);
    await first.notifier.stop();
    assert.is(receiver.requests.length, 1);
    // a restart with the same chart: still disabled (a probe through another subscription shows the loop ran)
    const probe = subscription({ id: 'probe', webhook: `${receiver.url}/probe`, events: ['gate.awaiting'] });
    const second = notifierOf([sub, probe], { paths: first.paths });
    second.notifier.start();
    try {
      await within(10_000, () => second.notifier.depth().pending === 2, 'the outbox read');
      second.notifier.kick();
      await second.notifier.offer(eventOf('gate.awaiting', 'T-3', { workflow: 'w', gate: 'g' }), taskOf('T-3'));
      await receiver.waitFor(2);
      assert.is(receiver.requests[1]!.url, '/hook/probe');
      assert.is(second.notifier.status()[0]!.disabled, true);
      second.state.chartKey = 'chart-2';
      second.notifier.kick();
      await receiver.waitFor(4);
      await within(10_000, () => outboxFiles(first.paths).length === 0, 'both sent');
      assert.is(second.notifier.status()[0]!.disabled, false);
      assert.ok(second.logs.some((l) => /gone is enabled again/.test(l)));
    } finally {
      await second.notifier.stop();
      await receiver.close();
    }
  },
);

delivery(
  'a hung receiver holds at most maxInFlight attempts and delays neither offer nor another subscription',
  async () => {
    const hung = await startReceiver();
    hung.fallback('hang');
    const ok = await startReceiver();
    const subs = [
      subscription({ id: 'slow', webhook: hung.url, timeoutMs: 60_000, maxInFlight: 2, events: ['task.deadletter'] }),
      subscription({ id: 'fast', webhook: ok.url, events: ['gate.awaiting'] }),
    ];
    const { notifier } = notifierOf(subs);
    notifier.start();
    try {
      for (let i = 0; i < 5; i++) await notifier.offer(deadletter(`T-${i}`), taskOf(`T-${i}`));
      await hung.waitFor(2);
      await notifier.offer(eventOf('gate.awaiting', 'T-9', { workflow: 'w', gate: 'g' }), taskOf('T-9'));
      await ok.waitFor(1);
      assert.is(hung.requests.length, 2);
      assert.is(notifier.status().find((s) => s.id === 'slow')!.pending, 5);
    } finally {
      await notifier.stop();
      await hung.close();
      await ok.close();
    }
  },
);

delivery(
  'a notifier made again over the same outbox (a restart) delivers what was pending, with the same ids',
  async () => {
    const receiver = await startReceiver();
    receiver.script({ status: 500 });
    const sub = subscription({ id: 'ops', webhook: receiver.url, retry: { initialMs: 60_000, maxMs: 60_000 } });
    const first = notifierOf([sub]);
    first.notifier.start();
    await first.notifier.offer(deadletter('T-0'), taskOf('T-0'));
    await receiver.waitFor(1);
    await within(10_000, () => first.outcomes.length === 1, 'the first attempt recorded');
    await first.notifier.stop();
    // written but never attempted: the daemon died before it could try
    const quiet = notifierOf([sub], { paths: first.paths });
    for (let i = 1; i <= 49; i++) await quiet.notifier.offer(deadletter(`T-${i}`), taskOf(`T-${i}`));
    const pending = await listOutbox(first.paths);
    assert.is(pending.length, 50);
    const second = notifierOf([sub], { paths: first.paths });
    second.notifier.start();
    try {
      second.notifier.kick();
      await receiver.waitFor(51);
      await within(10_000, () => outboxFiles(first.paths).length === 0, 'all sent');
      const ids = receiver.requests.map((r) => r.headers['x-svc-delivery']);
      assert.is(
        ids[0],
        ids.slice(1).find((id) => id === ids[0]),
      );
      assert.equal(new Set(ids.slice(1)), new Set(pending.map((e) => e.notification.deliveryId)));
    } finally {
      await second.notifier.stop();
      await receiver.close();
    }
  },
);

delivery.run();
