import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { statSync } from 'node:fs';
import { cursorAtEnd, loadCursor, saveCursor } from '../../../lib/daemon/notify/cursor.js';
import { startNotifyWiring, type NotifyWiring } from '../../../lib/daemon/notify/runner.js';
import { listOutbox, writeEntry } from '../../../lib/notify/outbox.js';
import { toIdDate } from '../../../lib/core/ids.js';
import { createStore } from '../../../lib/store/commit/store.js';
import type { EventInput } from '../../../lib/store/events/log.js';
import { writeOrg } from '../../helpers/agents.js';
import { startReceiver, type HttpReceiver } from '../../helpers/http-receiver.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

// The daemon's notifications over its own event log: where a first start begins, what a later start finds.
const test = suite('daemon.notify startNotifyWiring');
let receiver: HttpReceiver;
const wirings: NotifyWiring[] = [];
test.before.each(async () => {
  receiver = await startReceiver();
});
test.after.each(async () => {
  for (const wiring of wirings.splice(0)) await wiring.close();
  await receiver.close();
  cleanRoots();
});

const cancelled = (id: string): EventInput => ({
  type: 'task.cancelled',
  taskId: `TASK-2026-11-29-${id}`,
  actor: 'operator',
  payload: { reason: 'test' },
});

function withSubscription(root: string, subscribed: boolean): void {
  const notify = [{ id: 'ops', webhook: receiver.url, events: ['task.cancelled'], coalesceMs: 0 }];
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev' }], aof: { notify: subscribed ? notify : [] } });
}

async function start(root: string): Promise<NotifyWiring> {
  const wiring = await startNotifyWiring({
    store: createStore({ root }),
    taskOf: () => undefined,
    env: {},
    log: () => undefined,
    webPort: () => null,
    pollMs: 50,
  });
  wirings.push(wiring);
  return wiring;
}

const notified = () => receiver.requests.map((r) => (r.json as { event: { taskId: string } }).event.taskId);

test('a first start notifies what is recorded from then on, not the history of the log', async () => {
  const root = tempRoot();
  withSubscription(root, true);
  const store = createStore({ root });
  await store.events.record(new Date(), [cancelled('001'), cancelled('002')]);
  await start(root);
  await store.events.record(new Date(), [cancelled('003')]);
  await receiver.waitFor(1);
  await within(5000, async () => (await listOutbox(store.paths)).length === 0, 'the delivery done');
  assert.equal(notified(), ['TASK-2026-11-29-003']);
});

test('what was recorded while no daemon ran is notified at the next start, and nothing twice', async () => {
  const root = tempRoot();
  withSubscription(root, true);
  const store = createStore({ root });
  const first = await start(root);
  await store.events.record(new Date(), [cancelled('001')]);
  await receiver.waitFor(1);
  await first.close();
  await store.events.record(new Date(), [cancelled('002'), cancelled('003')]); // commands while it is down
  await start(root);
  await receiver.waitFor(3);
  assert.equal(notified().sort(), ['TASK-2026-11-29-001', 'TASK-2026-11-29-002', 'TASK-2026-11-29-003']);
});

test('without a subscription the cursor moves on: one added later is not sent the events of before', async () => {
  const root = tempRoot();
  withSubscription(root, false);
  const store = createStore({ root });
  const first = await start(root);
  await store.events.record(new Date(), [cancelled('001')]);
  const day = toIdDate(new Date());
  const size = statSync(store.paths.eventFile(day)).size;
  await within(5000, async () => (await loadCursor(store.paths))?.days[day] === size, 'the cursor past the event');
  await first.close();
  withSubscription(root, true);
  await start(root);
  await store.events.record(new Date(), [cancelled('002')]);
  await receiver.waitFor(1);
  assert.equal(notified(), ['TASK-2026-11-29-002']);
});

test('an event the outbox already holds (offered, then a crash before the cursor moved) is not offered again', async () => {
  const root = tempRoot();
  withSubscription(root, true);
  const store = createStore({ root });
  await store.events.record(new Date(), [cancelled('000')]);
  await saveCursor(store.paths, await cursorAtEnd(store.paths));
  const day = toIdDate(new Date());
  const offset = statSync(store.paths.eventFile(day)).size;
  await store.events.record(new Date(), [cancelled('001')]);
  const at = new Date().toISOString();
  const deliveryId = '7d0f5a2e-0000-4000-8000-00000000c0de';
  await writeEntry(store.paths, {
    notification: {
      deliveryId,
      subscription: 'ops',
      event: { id: `${day}:${offset}`, type: 'task.cancelled', at, taskId: 'TASK-2026-11-29-001', payload: {} },
      why: 'A task was cancelled.',
    },
    createdAt: at,
    attempts: 0,
    nextAttemptAt: at,
  });
  await start(root);
  await receiver.waitFor(1);
  const size = statSync(store.paths.eventFile(day)).size;
  await within(5000, async () => (await loadCursor(store.paths))?.days[day] === size, 'the cursor past the event');
  await within(5000, async () => (await listOutbox(store.paths)).length === 0, 'the delivery done');
  assert.equal(
    receiver.requests.map((r) => r.headers['x-svc-delivery']),
    [deliveryId],
  );
});

test.run();
