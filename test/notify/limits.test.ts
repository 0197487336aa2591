import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { backoffMs } from '../../lib/notify/limits.js';
import { watchdogSubscription } from '../../lib/notify/watchdog.js';
import { startReceiver } from '../helpers/http-receiver.js';
import { cleanRoots } from '../helpers/root.js';
import { notifierOf } from './setup.js';

const limits = suite('notify limits');
limits.after.each(cleanRoots);

limits('backoff: exponential from initialMs to maxMs, with full jitter (0 up to the bound)', () => {
  const retry = { initialMs: 2_000, maxMs: 3_600_000 };
  const top = () => 0.999_999;
  assert.is(
    backoffMs(1, retry, () => 0),
    0,
  );
  assert.is(backoffMs(1, retry, top), 1_999);
  assert.is(backoffMs(2, retry, top), 3_999);
  assert.is(backoffMs(5, retry, top), 31_999);
  assert.is(backoffMs(40, retry, top), 3_599_996);
  assert.is(
    backoffMs(5, retry, () => 0.5),
    16_000,
  );
});

limits('the watchdog’s alerting.webhook is a subscription to its critical report, delivered as json', async () => {
  const receiver = await startReceiver();
  const sub = watchdogSubscription(receiver.url);
  assert.equal(sub.events, ['watchdog.critical']);
  const { notifier } = notifierOf([sub]);
  notifier.start();
  try {
    const report = { report: 'WATCHDOG CRITICAL', restarts: 3, maxRestarts: 3, windowMs: 3_600_000 };
    assert.is(
      await notifier.offer({ timestamp: new Date().toISOString(), type: 'watchdog.critical', payload: report }),
      1,
    );
    const [req] = await receiver.waitFor(1);
    const body = req!.json as { event: { type: string; payload: unknown }; subscription: string };
    assert.is(body.subscription, 'watchdog');
    assert.equal(body.event.payload, report);
  } finally {
    await notifier.stop();
    await receiver.close();
  }
});

limits.run();
