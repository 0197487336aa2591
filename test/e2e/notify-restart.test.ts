// Notifications survive: a daemon SIGKILLed with 50 deliveries pending sends all 50 after its restart, each with its
// original delivery id; a receiver that never answers ends in data/outbox/failed/, and `svc notify retry` sends it
// once the receiver is back.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { healthy, runSvc, startChild } from '../helpers/daemon.js';
import { startReceiver, type HttpReceiver } from '../helpers/http-receiver.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { bodyOf, outbox, subscription, untilOutboxEmpty, writeNotifyOrg } from './notify-setup.js';

const flow = suite('e2e.notify-restart');
let receiver: HttpReceiver;
flow.before.each(async () => {
  receiver = await startReceiver();
});
flow.after.each(async () => {
  await receiver.close();
  cleanRoots();
});

async function cancelTasks(env: Record<string, string>, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const created = await runSvc(env, 'task', 'create', `Task ${n}`, '--json');
    assert.is(created.code, 0, created.stderr);
    const id = (JSON.parse(created.stdout) as { id: string }).id;
    assert.is((await runSvc(env, 'task', 'cancel', id)).code, 0);
    ids.push(id);
  }
  return ids;
}

flow(
  'a daemon SIGKILLed with 50 deliveries pending delivers all 50 after its restart, each with its original id',
  async () => {
    const root = tempRoot();
    const env = { SVC_HOME: root, HOME: root };
    writeNotifyOrg(root, {
      notify: [
        subscription({
          id: 'ops',
          webhook: receiver.url,
          events: ['task.cancelled'],
          maxInFlight: 50,
          retry: { initialMs: 2000, maxMs: 2000, giveUpAfterMs: 3_600_000 },
        }),
      ],
    });
    receiver.fallback({ status: 503, body: 'down for maintenance' });
    const first = startChild(root);
    await healthy(root);
    const tasks = await cancelTasks(env, 50);
    // every delivery attempted (503) and waiting for its next attempt, at most 2 s away
    await receiver.waitFor(50, 30_000);
    const pending = await within(
      20_000,
      async () => {
        const entries = await outbox(root);
        return entries.length === 50 && entries.every((e) => e.attempts >= 1) ? entries : null;
      },
      '50 pending deliveries, each attempted',
    );
    const ids = new Map(pending.map((e) => [e.notification.deliveryId, e.notification.task?.id]));
    assert.equal([...ids.values()].sort(), [...tasks].sort());
    await first.kill();
    receiver.fallback({ status: 200 });
    const seen = receiver.requests.length;
    const second = startChild(root);
    await healthy(root);
    await untilOutboxEmpty(root, 30_000);
    const after = receiver.requests.slice(seen);
    assert.equal(
      [...new Set(after.map((r) => r.headers['x-svc-delivery']))].sort(),
      [...ids.keys()].sort(),
      'all 50 delivered again with their original delivery ids',
    );
    for (const request of after) assert.is(bodyOf(request).task?.id, ids.get(bodyOf(request).deliveryId));
    await second.kill();
  },
);

flow(
  'a receiver that never answers: failed/ after giveUpAfterMs; svc notify retry sends it once it is back',
  async () => {
    const root = tempRoot();
    const env = { SVC_HOME: root, HOME: root };
    writeNotifyOrg(root, {
      notify: [
        subscription({
          id: 'gone',
          webhook: receiver.url,
          events: ['task.cancelled'],
          timeoutMs: 200,
          retry: { initialMs: 50, maxMs: 100, giveUpAfterMs: 1500 },
        }),
      ],
    });
    receiver.fallback('hang');
    const daemon = startChild(root);
    await healthy(root);
    const [task] = await cancelTasks(env, 1);
    const [failed] = await within(
      20_000,
      async () => {
        const entries = await outbox(root, true);
        return entries.length === 1 ? entries : null;
      },
      'the delivery in data/outbox/failed/',
    );
    const deliveryId = failed!.notification.deliveryId;
    assert.is(failed!.notification.task?.id, task);
    const listed = await runSvc(env, 'notify', 'list', '--failed');
    assert.is(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, deliveryId);
    assert.match(listed.stdout, '1 failed');
    const attempts = receiver.requests.length;
    receiver.fallback({ status: 200 });
    const retried = await runSvc(env, 'notify', 'retry', '--all');
    assert.is(retried.code, 0, retried.stderr);
    assert.match(retried.stdout, '1 delivery due now: the daemon sends them now.');
    const [sent] = (await receiver.waitFor(attempts + 1)).slice(attempts);
    assert.is(sent!.headers['x-svc-delivery'], deliveryId);
    await untilOutboxEmpty(root);
    assert.equal(await outbox(root, true), []);
    const none = await runSvc(env, 'notify', 'retry', 'no-such-id');
    assert.is(none.code, 1);
    assert.match(none.stderr, 'Nothing to retry: no pending or failed delivery matches no-such-id.');
    await daemon.kill();
  },
);

flow.run();
