import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Paths } from '../../lib/store/disk/paths.js';
import { startReceiver } from '../helpers/http-receiver.js';
import { cleanRoots, within } from '../helpers/root.js';
import { deadletter, eventOf, notifierOf, outboxFiles, subscription, taskOf } from './setup.js';

const storms = suite('notify storms');
storms.after.each(cleanRoots);

type Sent = {
  deliveryId: string;
  event: { id: string };
  coalesced?: { count: number; taskIds: string[]; eventIds: string[] };
};

/** How many events the notifications received stand for (a coalesced one counts its events). */
function covered(sent: Sent[]): number {
  return sent.reduce((sum, n) => sum + (n.coalesced?.count ?? 1), 0);
}

storms(
  '200 deadletters within a window reach the receiver as a handful of notifications, every one counted',
  async () => {
    const receiver = await startReceiver();
    const sub = subscription({ id: 'ops', webhook: receiver.url, coalesceMs: 4_000 });
    const { notifier, paths } = notifierOf([sub]);
    notifier.start();
    try {
      let written = 0;
      for (let i = 0; i < 200; i++) written += await notifier.offer(deadletter(`T-${i}`), taskOf(`T-${i}`));
      assert.is(written, 200);
      const sent = () => receiver.requests.map((r) => r.json as Sent);
      await within(20_000, () => covered(sent()) === 200, 'all 200 deadletters told');
      assert.ok(receiver.requests.length <= 6, `${receiver.requests.length} notifications`);
      const first = sent()[0]!;
      assert.is(first.coalesced, undefined);
      const burst = sent().find((n) => n.coalesced)!;
      assert.is(burst.coalesced!.taskIds.length, 10);
      assert.is(burst.coalesced!.taskIds[0], 'T-1');
      assert.match((burst as unknown as { why: string }).why, /more task\.deadletter events/);
      assert.is((burst as unknown as { action: string }).action, 'svc task list --status deadletter');
      await within(10_000, () => outboxFiles(paths).length === 0, 'the outbox empty');
    } finally {
      await notifier.stop();
      await receiver.close();
    }
  },
);

storms('the events gathered in a window survive a restart in the middle of it: merged and sent once', async () => {
  const receiver = await startReceiver();
  const sub = subscription({ id: 'ops', webhook: receiver.url, coalesceMs: 4_000 });
  const first = notifierOf([sub]);
  first.notifier.start();
  const events = [0, 1, 2, 3, 4].map((i) => deadletter(`T-${i}`));
  for (const [i, event] of events.entries()) await first.notifier.offer(event, taskOf(`T-${i}`));
  await receiver.waitFor(1);
  await first.notifier.stop();
  assert.is(gatheredFiles(first.paths).length, 4, 'the window still open when the first notifier stopped');
  const second = notifierOf([sub], { paths: first.paths });
  second.notifier.start();
  try {
    const [, merged] = (await receiver.waitFor(2)).map((r) => r.json as Sent);
    assert.is(merged!.coalesced!.count, 4);
    assert.equal(merged!.coalesced!.taskIds, ['T-1', 'T-2', 'T-3', 'T-4']);
    await within(10_000, () => outboxFiles(first.paths).length === 0, 'the merged notification sent');
    assert.is(receiver.requests.length, 2);
  } finally {
    await second.notifier.stop();
    await receiver.close();
  }
});

storms('an SLA violation of one task is told once per rate limit, another task’s at once', async () => {
  const receiver = await startReceiver();
  const sub = subscription({ id: 'ops', webhook: receiver.url, events: ['sla.violation'] });
  const { notifier, paths } = notifierOf([sub], { rateLimitMs: () => 60_000 });
  const sla = (id: string) => eventOf('sla.violation', id, { duration: 10, limit: 5, agent: 'coder', timestamp: 1 });
  assert.is(await notifier.offer(sla('T-1'), taskOf('T-1')), 1);
  assert.is(await notifier.offer(sla('T-1'), taskOf('T-1')), 0);
  assert.is(await notifier.offer(sla('T-2'), taskOf('T-2')), 1);
  // the limit is on disk: a restart keeps it
  const again = notifierOf([sub], { paths, rateLimitMs: () => 60_000 });
  assert.is(await again.notifier.offer(sla('T-1'), taskOf('T-1')), 0);
  assert.is(await again.notifier.offer(sla('T-3'), taskOf('T-3')), 1);
  await receiver.close();
});

storms.run();

function gatheredFiles(paths: Paths): string[] {
  const dir = join(paths.data, 'outbox', 'coalesce');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.json'));
}
