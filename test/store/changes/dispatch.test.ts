import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { requeueUnspawned } from '../../../lib/store/changes/requeue.js';
import { cleanRoots } from '../../helpers/root.js';
import { inProgressTask, setup } from '../../tools/helpers.js';

const requeue = suite('store.requeueUnspawned');
requeue.after.each(cleanRoots);

requeue('a task still leased to the session goes back to ready, its dispatch not counted as failed', async () => {
  const { store, events } = setup();
  const { id, sessionId } = await inProgressTask(store);
  assert.is(await requeueUnspawned(store, id, sessionId), true);
  const after = await store.get(id);
  assert.is(after.status, 'ready');
  assert.is(after.task.lease, undefined);
  assert.is(after.task.metadata.dispatchFailures, undefined);
  const moved = (await events()).filter((event) => event.type === 'task.transitioned' && event.payload.to === 'ready');
  assert.equal(
    moved.map((event) => [event.actor, event.payload.reason]),
    [['scheduler', 'spawn never handed to an adapter (daemon restart)']],
  );
});

requeue('a task under another session is left where it is', async () => {
  const { store } = setup();
  const { id } = await inProgressTask(store);
  assert.is(await requeueUnspawned(store, id, 'another-session'), false);
  assert.is((await store.get(id)).status, 'in-progress');
});

requeue.run();
