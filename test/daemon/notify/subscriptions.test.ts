import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findSubscription, toChartKey, toSubscriptions } from '../../../lib/daemon/notify/subscriptions.js';
import { OrgChartSchema } from '../../../lib/org/schema.js';
import { isSvcError } from '../../../lib/core/errors.js';

const test = suite('daemon.notify toSubscriptions');

const chartOf = (aof: Record<string, unknown>) => OrgChartSchema.parse({ schemaVersion: 1, aof });

test('adds the watchdog’s alerting.webhook as a subscription of watchdog.critical, json unless channel names a format', () => {
  const subs = toSubscriptions(
    chartOf({
      notify: [{ id: 'ops', webhook: 'http://127.0.0.1:1/hook', events: ['task.deadletter'] }],
      daemon: { watchdog: { alerting: { webhook: 'http://127.0.0.1:2/alert' } } },
    }),
  );
  assert.equal(
    subs.map((s) => [s.id, s.webhook, s.format, s.events]),
    [
      ['ops', 'http://127.0.0.1:1/hook', 'json', ['task.deadletter']],
      ['watchdog', 'http://127.0.0.1:2/alert', 'json', ['watchdog.critical']],
    ],
  );
  const slack = toSubscriptions(
    chartOf({ daemon: { watchdog: { alerting: { channel: 'slack', webhook: 'https://hooks.example.com/x' } } } }),
  );
  assert.is(slack[0]!.format, 'slack');
  assert.equal(toSubscriptions(null), []);
});

test('the chart key changes with the subscriptions', () => {
  const a = toSubscriptions(
    chartOf({ notify: [{ id: 'ops', webhook: 'http://127.0.0.1:1/a', events: ['task.deadletter'] }] }),
  );
  const b = toSubscriptions(
    chartOf({ notify: [{ id: 'ops', webhook: 'http://127.0.0.1:1/b', events: ['task.deadletter'] }] }),
  );
  assert.is(toChartKey(a), toChartKey(structuredClone(a)));
  assert.is.not(toChartKey(a), toChartKey(b));
});

test('an unknown subscription is not_found with the closest id and the list', () => {
  const subs = toSubscriptions(chartOf({ notify: [{ id: 'ops-hook', command: ['true'], events: ['gate.awaiting'] }] }));
  try {
    findSubscription(subs, 'ops-hok');
    assert.unreachable('no such subscription');
  } catch (err) {
    assert.ok(isSvcError(err, 'not_found'));
    assert.match((err as Error).message, 'No subscription "ops-hok" in aof.notify. Did you mean "ops-hook"?');
    assert.match((err as { hint?: string }).hint ?? '', 'Subscriptions: ops-hook.');
  }
});

test.run();
