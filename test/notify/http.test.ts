import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startReceiver } from '../helpers/http-receiver.js';
import { cleanRoots, within } from '../helpers/root.js';
import { deadletter, eventOf, notifierOf, subscription, taskOf } from './setup.js';

const http = suite('notify http');
http.after.each(cleanRoots);

http('a redirect is not followed, and no more than 2 KiB of an answer is read', async () => {
  const receiver = await startReceiver();
  const other = await startReceiver();
  receiver.script({ status: 302, headers: { location: other.url } }, { status: 500, body: 'x'.repeat(1024 * 1024) });
  const sub = subscription({ id: 'ops', webhook: receiver.url });
  const { notifier, outcomes } = notifierOf([sub]);
  notifier.start();
  try {
    await notifier.offer(deadletter('T-1'), taskOf('T-1'));
    await within(10_000, () => outcomes.some((o) => o.outcome === 'delivered'), 'the third attempt');
    assert.match(outcomes[0]!.error!, new RegExp(`HTTP 302 \\(redirect to ${other.url} not followed\\)`));
    assert.ok(outcomes[1]!.error!.length < 400, `${outcomes[1]!.error!.length} characters`);
    assert.is(other.requests.length, 0);
  } finally {
    await notifier.stop();
    await receiver.close();
    await other.close();
  }
});

http('svc notify test sends a sample to one subscription and says how it went; an unknown one is named', async () => {
  const receiver = await startReceiver();
  receiver.script({ status: 404, body: 'no such hook' });
  const sub = subscription({ id: 'ops', webhook: receiver.url, format: 'slack', secretEnv: 'SVC_NOTIFY_SECRET' });
  const { notifier, state } = notifierOf([sub]);
  const failed = await notifier.sendTest('ops');
  assert.is(failed.ok, false);
  assert.is(failed.status, 404);
  assert.match(failed.error!, /HTTP 404: no such hook/);
  const ok = await notifier.sendTest('ops');
  assert.is(ok.ok, true);
  assert.match((receiver.requests[1]!.json as { text: string }).text, /A test of the subscription ops/);
  assert.ok(receiver.requests[1]!.headers['x-svc-signature']?.startsWith('sha256='));
  state.env = {};
  const unsigned = await notifier.sendTest('ops');
  assert.match(unsigned.error!, /SVC_NOTIFY_SECRET \(secretEnv\) is not set/);
  try {
    await notifier.sendTest('nope');
    assert.unreachable('an unknown subscription');
  } catch (err) {
    assert.match((err as Error).message, /No subscription "nope"/);
    assert.match((err as { hint?: string }).hint ?? '', /Known subscriptions: ops/);
  }
  await receiver.close();
});

http('a delivery whose subscription left the org chart waits in the outbox and goes when it is back', async () => {
  const receiver = await startReceiver();
  const sub = subscription({ id: 'ops', webhook: receiver.url });
  const probe = subscription({ id: 'probe', webhook: `${receiver.url}/probe`, events: ['gate.awaiting'] });
  const { notifier, state } = notifierOf([sub, probe]);
  await notifier.offer(deadletter('T-1'), taskOf('T-1'));
  state.subs = [probe];
  notifier.start();
  try {
    await within(10_000, () => notifier.depth().pending === 1, 'the outbox read');
    notifier.kick();
    // the probe's delivery shows the loop ran past the waiting one
    await notifier.offer(eventOf('gate.awaiting', 'T-2', { workflow: 'w', gate: 'g' }), taskOf('T-2'));
    await receiver.waitFor(1);
    await within(10_000, () => notifier.depth().pending === 1, 'the probe sent');
    assert.equal(notifier.depth().failed, 0);
    state.subs = [sub, probe];
    notifier.kick();
    await receiver.waitFor(2);
    await within(10_000, () => notifier.depth().pending === 0, 'sent');
    assert.is(receiver.requests[1]!.url, '/hook');
  } finally {
    await notifier.stop();
    await receiver.close();
  }
});

http.run();
