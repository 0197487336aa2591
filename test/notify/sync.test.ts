import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listOutbox, retryOutbox } from '../../lib/notify/outbox.js';
import { startReceiver } from '../helpers/http-receiver.js';
import { cleanRoots, within } from '../helpers/root.js';
import { deadletter, notifierOf, outboxFiles, subscription, taskOf } from './setup.js';

const sync = suite('notify outbox shared');
sync.after.each(cleanRoots);

sync('a delivery another process wrote to the outbox is found and sent by the running notifier', async () => {
  const receiver = await startReceiver();
  const sub = subscription({ id: 'ops', webhook: receiver.url });
  const running = notifierOf([sub]);
  running.notifier.start();
  try {
    // another daemon on the tree (or one not delivering) only writes
    const other = notifierOf([sub], { paths: running.paths });
    await other.notifier.offer(deadletter('T-1'), taskOf('T-1'));
    const [written] = await listOutbox(running.paths);
    running.notifier.kick();
    const [req] = await receiver.waitFor(1);
    assert.is(req!.headers['x-svc-delivery'], written!.notification.deliveryId);
    await within(10_000, () => outboxFiles(running.paths).length === 0, 'sent');
  } finally {
    await running.notifier.stop();
    await receiver.close();
  }
});

sync(
  'svc notify retry without a daemon: the failed delivery goes back to pending and a notifier sends it',
  async () => {
    const receiver = await startReceiver();
    receiver.script({ status: 500 });
    const sub = subscription({
      id: 'ops',
      webhook: receiver.url,
      retry: { initialMs: 10, maxMs: 10, giveUpAfterMs: 1 },
    });
    const first = notifierOf([sub]);
    first.notifier.start();
    await first.notifier.offer(deadletter('T-1'), taskOf('T-1'));
    await within(10_000, () => first.notifier.depth().failed === 1 && first.notifier.depth().pending === 0, 'failed');
    // the command line, with the files only
    const back = await retryOutbox(first.paths, { which: 'ops', now: new Date() });
    assert.is(back.length, 1);
    assert.equal(await listOutbox(first.paths, { failed: true }), []);
    try {
      first.notifier.kick();
      await receiver.waitFor(2);
      await within(10_000, () => first.notifier.depth().pending === 0 && first.notifier.depth().failed === 0, 'sent');
      assert.equal(outboxFiles(first.paths), []);
    } finally {
      await first.notifier.stop();
      await receiver.close();
    }
  },
);

sync.run();
