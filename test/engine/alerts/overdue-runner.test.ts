import { existsSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OVERDUE_DUTY, type DutyGate } from '../../../lib/engine/duty-gate.js';
import { startOverdue } from '../../../lib/engine/alerts/overdue-runner.js';
import { createStore, initTree } from '../../../lib/store/commit/store.js';
import { createTaskIndex } from '../../../lib/store/index/tasks.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { cleanRoots, fixedClock, tempRoot } from '../../helpers/root.js';

const runner = suite('engine.startOverdue with a duty gate');
runner.after.each(cleanRoots);

/** A duty gate whose answers the test sets: whether this daemon owns the duty, and what the last owner handed over. */
function gate(owns: boolean, handed?: unknown): DutyGate & { saved: unknown[] } {
  let handover = handed;
  const saved: unknown[] = [];
  return {
    saved,
    owns: (duty) => {
      assert.is(duty, OVERDUE_DUTY);
      return owns;
    },
    handover: () => {
      const out = handover;
      handover = undefined;
      return out;
    },
    save: async (_duty, state) => void saved.push(state),
  };
}

async function setUp() {
  const root = tempRoot();
  const paths = toPaths(root);
  await initTree(paths);
  const clock = fixedClock('2026-11-21T10:00:00.000Z');
  const store = createStore({ root, clock });
  const task = await store.create({ title: 'Due soon', createdBy: 'test', dueAt: '2026-11-21T10:05:00.000Z' });
  clock.set('2026-11-21T10:06:00.000Z');
  const index = await createTaskIndex(paths, { watch: false });
  return { store, index, id: task.task.id, paths };
}

runner(
  'a daemon that does not own the duty alerts nothing and records nothing; the owner alerts once and saves what it alerted for the next owner',
  async () => {
    const { store, index, id, paths } = await setUp();
    const alerts: string[] = [];
    const other = startOverdue({
      store,
      index,
      log: () => undefined,
      alert: (text) => alerts.push(text),
      duty: gate(false),
    });
    assert.equal(await other.check(), []);
    assert.equal(alerts, []);
    assert.not.ok(existsSync(paths.overdueAlerts), 'nothing recorded by a daemon without the duty');
    const duty = gate(true);
    const owner = startOverdue({ store, index, log: () => undefined, alert: (text) => alerts.push(text), duty });
    assert.equal(
      (await owner.check()).map((task) => task.id),
      [id],
    );
    assert.equal(
      (await owner.check()).map((task) => task.id),
      [],
      'one alert per due time',
    );
    assert.is(alerts.length, 1);
    assert.equal(duty.saved, [{ [id]: '2026-11-21T10:05:00.000Z' }]);
    other.close();
    owner.close();
    await index.close();
  },
);

runner(
  'a daemon taking the duty over goes on from the state handed over: a task already alerted is not alerted again',
  async () => {
    const { store, index, id } = await setUp();
    const alerts: string[] = [];
    const taker = startOverdue({
      store,
      index,
      log: () => undefined,
      alert: (text) => alerts.push(text),
      duty: gate(true, { [id]: '2026-11-21T10:05:00.000Z' }),
    });
    assert.equal(await taker.check(), []);
    assert.equal(alerts, []);
    taker.close();
    await index.close();
  },
);

runner.run();
