import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toSnapshot } from '../../../lib/daemon/scheduling/plan-view.js';
import type { GateRoleResolver } from '../../../lib/engine/gates.js';
import { createStore, initTree } from '../../../lib/store/commit/store.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { createTaskIndex } from '../../../lib/store/index/tasks.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const view = suite('daemon.plan view of the index');
view.after.each(cleanRoots);

const noRole: GateRoleResolver = async () => undefined;

view(
  "a snapshot lists the ready tasks as plan tasks, the same object each tick while the file is unchanged, and answers each id's status",
  async () => {
    const root = tempRoot();
    const paths = toPaths(root);
    await initTree(paths);
    const store = createStore({ root });
    const ready = await store.create({ title: 'Ready one', createdBy: 'test', status: 'ready', priority: 'high' });
    const backlog = await store.create({ title: 'Not yet', createdBy: 'test' });
    const index = await createTaskIndex(paths, { watch: false });
    try {
      const first = await toSnapshot(index, noRole);
      assert.equal(
        first.ready.map((task) => [task.id, task.status, task.priority]),
        [[ready.task.id, 'ready', 'high']],
      );
      assert.equal(first.inProgress, []);
      assert.is(first.statusOf(backlog.task.id), 'backlog');
      assert.is(first.statusOf('TASK-2026-01-01-999'), undefined);
      const second = await toSnapshot(index, noRole);
      assert.is(second.ready[0], first.ready[0], 'the plan task of an unchanged entry is kept');
    } finally {
      await index.close();
    }
  },
);

view.run();
