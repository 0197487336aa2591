import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startOwnCommits } from '../../lib/daemon/own-commits.js';
import { createTicks } from '../../lib/daemon/ticks.js';
import { createStore, listTasks } from '../../lib/store/commit/store.js';
import { STATUSES } from '../../lib/core/status.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { createTaskIndex, type TaskIndex } from '../../lib/store/index/tasks.js';
import { call, closeDaemons, gate, startTestDaemon, taskText } from '../helpers/daemon.js';
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
commits.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

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

commits(
  'through the socket, 16 calls at once: a file made by hand meanwhile is seen, and the index is the disk',
  async () => {
    const root = tempRoot();
    const daemon = await startTestDaemon(root, { schedule: false, rescanIntervalMs: 60_000 });
    await daemon.index.watching;
    const invoke = async (tool: string, params: object) =>
      ((await call(root, 'POST', '/v1/tool/invoke', { tool, params })).body as { result: { taskId: string } }).result;
    const hand = 'TASK-2026-01-01-777';
    const lanes = Array.from({ length: 16 }, async (_, lane) => {
      for (let i = 0; i < 6; i++) {
        const { taskId } = await invoke('test_create', { title: `Lane ${lane} ${i}` });
        if (lane === 0 && i === 2)
          writeFileSync(toPaths(root).taskFile('backlog', hand), taskText(hand, 'backlog', 'Hand'));
        await invoke('test_move', { taskId, status: i % 2 ? 'blocked' : 'ready' });
      }
    });
    await Promise.all(lanes);
    await within(3000, () => daemon.index.get(hand), 'the hand-made file in the index (the rescan is a minute away)');
    const truth = (await listTasks(toPaths(root), STATUSES)).tasks.map((t) => `${t.task.id} ${t.status}`).sort();
    const seen = [...daemon.index.summaries()].map((e) => `${e.id} ${e.status}`).sort();
    assert.equal(seen, truth);
    assert.is(truth.length, 97);
    assert.not.ok(existsSync(toPaths(root).conflicts), 'no duplicate was repaired');
    await closeDaemons();
  },
);

commits.run();
