import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startOwnCommits } from '../../lib/daemon/own-commits.js';
import { createTicks } from '../../lib/daemon/ticks.js';
import { createStore } from '../../lib/store/commit/store.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { createTaskIndex, type TaskIndex } from '../../lib/store/index/tasks.js';
import { gate, taskText } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

/** The daemon's store over a fresh root, with its healer and a real index wired as `launch` wires them. */
async function daemonStore() {
  const root = tempRoot();
  const disk = createStore({ root });
  const state: { index: TaskIndex | null } = { index: null };
  const ticks = createTicks(() => undefined);
  const healed: string[] = [];
  const lines: string[] = [];
  const own = startOwnCommits(disk, {
    state,
    ticks,
    log: (line) => lines.push(line),
    onHealed: (id) => healed.push(id),
  });
  const index = await createTaskIndex(toPaths(root), {
    watch: false,
    rescanIntervalMs: 60_000,
    inFlight: own.inFlight,
    onNeedsRepair: (id, why) => own.healer.repair(id, why),
  });
  const rechecked: string[] = [];
  const update = index.update;
  index.update = (ids) => {
    rechecked.push(...ids);
    return update(ids);
  };
  state.index = index;
  const close = async () => {
    await own.healer.close();
    await index.close();
  };
  return { root, own, index, ticks, healed, lines, rechecked, close };
}

const commits = suite('daemon.startOwnCommits');
commits.after.each(() => cleanRoots());

commits('the healer leaves an id whose commit is in flight alone, and looks at it again once it ends', async () => {
  const { own, index, healed, lines, rechecked, close } = await daemonStore();
  const made = await own.store.create({ title: 'Moving', createdBy: 'test' });
  const id = made.task.id;
  const entered = gate();
  const door = gate();
  const moving = own.store.commit(
    id,
    async (cur) => {
      entered.open();
      await door.promise;
      return { task: cur.task, body: cur.body, status: 'ready' };
    },
    'test',
  );
  await entered.promise;
  assert.ok(own.inFlight(id));
  own.healer.repair(id, 'duplicate'); // what the index reports when it sees the task in two folders mid-move
  door.open();
  await moving;
  assert.not.ok(own.inFlight(id));
  await within(3000, () => rechecked.includes(id), 'the id looked at again');
  await close();
  assert.equal(healed, [], 'no repair ran: it would have taken the lock after the move');
  assert.equal(lines, []);
  assert.is(index.get(id)?.status, 'ready');
});

commits('a real duplicate of an id no commit holds is repaired: the older copy goes to data/conflicts', async () => {
  const { root, own, index, healed, close } = await daemonStore();
  const made = await own.store.create({ title: 'Copied', createdBy: 'test', status: 'ready' });
  const id = made.task.id;
  const paths = toPaths(root);
  writeFileSync(paths.taskFile('blocked', id), taskText(id, 'blocked', 'A stale copy'));
  await index.update([id]);
  await within(3000, () => healed.includes(id), 'the repair');
  await close();
  assert.not.ok(existsSync(paths.taskFile('blocked', id)));
  assert.ok(existsSync(paths.taskFile('ready', id)));
  assert.is(readdirSync(paths.conflicts).length, 1);
});

commits('each result is in the index at once, and recorded as able to make a dispatch or not', async () => {
  const { own, index, ticks, close } = await daemonStore();
  const backlog = await own.store.create({ title: 'Later', createdBy: 'test' });
  assert.is(index.get(backlog.task.id)?.title, 'Later');
  assert.not.ok(ticks.committedAsk([backlog.task.id]), 'a create into backlog cannot dispatch');
  await own.store.commit(backlog.task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'blocked' }), 'a');
  assert.is(index.get(backlog.task.id)?.status, 'blocked');
  assert.not.ok(ticks.committedAsk([backlog.task.id]), 'a block of a task not in progress cannot');
  await own.store.commit(backlog.task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'a');
  assert.ok(ticks.committedAsk([backlog.task.id]), 'a task reaching ready can');
  const ready = await own.store.create({ title: 'Now', createdBy: 'test', status: 'ready' });
  assert.ok(ticks.committedAsk([ready.task.id]), 'a create into ready can');
  await close();
});

commits.run();
