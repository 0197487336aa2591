import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { attachWorkspace } from '../../../lib/store/changes/workspace.js';
import { setStatus } from '../../../lib/store/changes/ops.js';
import { cleanRoots } from '../../helpers/root.js';
import { inProgressTask, setup } from '../../tools/helpers.js';

const attach = suite('store.attachWorkspace');
attach.after.each(cleanRoots);

const workspace = { name: 'main', path: '/tmp/wt/TASK-1', branch: 'svc/TASK-1', base: 'main', host: 'here' };

attach('records the worktree under the lease, keeps updatedAt, and logs workspace.attached', async () => {
  const { store, events } = setup();
  const { id, sessionId } = await inProgressTask(store);
  const before = await store.get(id);
  const result = await attachWorkspace(store, { taskId: id, sessionId, workspace, created: true });
  assert.is(result.changed, true);
  assert.equal(result.after.task.workspace, workspace);
  assert.is(result.after.task.updatedAt, before.task.updatedAt);
  const attached = (await events()).filter((event) => event.type === 'workspace.attached');
  assert.equal(
    attached.map((event) => [event.taskId, event.actor, event.payload.created]),
    [[id, 'scheduler', true]],
  );
});

attach('records nothing once the lease is gone', async () => {
  const { store } = setup();
  const { id, sessionId } = await inProgressTask(store);
  await setStatus(store, id, { to: 'ready', actor: 'test', sessionId });
  const result = await attachWorkspace(store, { taskId: id, sessionId, workspace, created: false });
  assert.is(result.changed, false);
  assert.is((await store.get(id)).task.workspace, undefined);
});

attach.run();
