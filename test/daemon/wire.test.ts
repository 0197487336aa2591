import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Scheduling } from '../../lib/daemon/scheduling/scheduling.js';
import type { IndexChange } from '../../lib/store/index/tasks.js';
import { createEventRetry } from '../../lib/daemon/event-retry.js';
import { createHealer } from '../../lib/daemon/heal.js';
import { createTicks } from '../../lib/daemon/ticks.js';
import { createChangeFeed } from '../../lib/daemon/http/change-feed.js';
import { createLog } from '../../lib/daemon/instance/log.js';
import { createSignals, toIndexSignals, wireDaemon, type DaemonSignals } from '../../lib/daemon/wire.js';
import type { DaemonState } from '../../lib/daemon/options.js';
import { createStore } from '../../lib/store/commit/store.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

/** The daemon's real parts on a fresh root, wired; the scheduler is a plain object recording what it is asked. */
async function wired() {
  const root = tempRoot();
  const store = createStore({ root });
  await store.init();
  const logFile = `${root}/data/logs/daemon.log`;
  const log = createLog({ file: logFile });
  const errors: string[] = [];
  const signals: DaemonSignals = createSignals((err, name) => errors.push(`${name}: ${(err as Error).message}`));
  const asked: string[] = [];
  const scheduling = {
    schedule: () => asked.push('schedule'),
    observe: (change: IndexChange) => asked.push(`observe ${change.id}`),
  } as unknown as Scheduling;
  const state: Pick<DaemonState, 'index' | 'metrics' | 'scheduling'> = { index: null, metrics: null, scheduling };
  const healer = createHealer(store, { log: () => undefined, onHealed: () => undefined });
  const changes = createChangeFeed();
  const events = createEventRetry({ events: store.events, log: () => log });
  const ticks = createTicks(() => scheduling.schedule());
  wireDaemon(signals, { store, clock: store.clock, log, events, healer, changes, state, ticks });
  const close = async () => {
    await healer.close();
    await events.close();
    return await log.close();
  };
  return { signals, asked, changes, errors, logFile, ticks, close };
}

/** The end of this turn of the event loop, when the ticks asked during it run. */
const turnEnd = () => new Promise((resolve) => setImmediate(resolve));

const wire = suite('daemon.wireDaemon');
wire.after.each(() => cleanRoots());

const TICKS: [IndexChange, boolean][] = [
  [{ id: 'TASK-1', to: 'ready' }, true],
  [{ id: 'TASK-1', from: 'backlog', to: 'ready' }, true],
  [{ id: 'TASK-1', from: 'in-progress', to: 'blocked' }, true],
  [{ id: 'TASK-1', from: 'in-progress', to: 'done' }, true],
  [{ id: 'TASK-1', from: 'ready', to: 'backlog' }, false],
  [{ id: 'TASK-1', from: 'backlog', to: 'blocked' }, false],
  [{ id: 'TASK-1', from: 'ready', to: 'in-progress' }, false],
];

wire(
  'a change the index sees is observed by the scheduler, and asks for a tick when it reaches ready, leaves in-progress or reaches done',
  async () => {
    const { signals, asked, close } = await wired();
    for (const [change, ticks] of TICKS) {
      asked.length = 0;
      signals.index.emit('changed', change);
      await turnEnd();
      assert.equal(asked, ticks ? ['observe TASK-1', 'schedule'] : ['observe TASK-1'], JSON.stringify(change));
    }
    await close();
  },
);

wire('the index options of a daemon emit its signals: a task touched bumps the change feed with its id', async () => {
  const { signals, changes, close } = await wired();
  const bumped: (readonly string[] | null)[] = [];
  changes.listen((ids) => bumped.push(ids));
  toIndexSignals(signals, () => false).onTouched?.('TASK-7');
  assert.equal(bumped, [['TASK-7']]);
  assert.is(changes.version(), 1);
  await close();
});

wire('a commit of the socket asks the scheduler for a tick', async () => {
  const { signals, asked, close } = await wired();
  signals.socket.emit('committed', ['TASK-1', 'TASK-2']);
  assert.equal(asked, []);
  await turnEnd();
  assert.equal(asked, ['schedule']);
  await close();
});

wire('a burst of 50 commits and index changes in one turn makes one tick, at the end of the turn', async () => {
  const { signals, asked, close } = await wired();
  for (let i = 0; i < 50; i++) {
    signals.socket.emit('committed', [`TASK-${i}`]);
    signals.index.emit('changed', { id: `TASK-${i}`, from: 'backlog', to: 'ready' });
  }
  await turnEnd();
  assert.is(asked.filter((a) => a === 'schedule').length, 1);
  signals.socket.emit('committed', ['TASK-50']);
  await turnEnd();
  assert.is(asked.filter((a) => a === 'schedule').length, 2, 'the next turn ticks again');
  await close();
});

wire(
  'a commit recorded as unable to dispatch asks no tick; one that may, or an id without a record, does',
  async () => {
    const { signals, asked, ticks, close } = await wired();
    ticks.record('TASK-1', { mayDispatch: false });
    signals.socket.emit('committed', ['TASK-1']);
    await turnEnd();
    assert.equal(asked, [], 'a create into backlog, a block: no tick');
    ticks.record('TASK-1', { mayDispatch: false });
    ticks.record('TASK-1', { mayDispatch: true });
    signals.socket.emit('committed', ['TASK-1']);
    await turnEnd();
    assert.equal(asked, ['schedule'], 'two commits of one id in one call: either may dispatch');
    asked.length = 0;
    signals.socket.emit('committed', ['TASK-1']);
    await turnEnd();
    assert.equal(asked, ['schedule'], 'the record was read once: none left, so a tick');
    await close();
  },
);

wire(
  'a rescan that found files is logged; a listener that throws is reported with its signal and the others still run',
  async () => {
    const { signals, asked, errors, logFile, close } = await wired();
    signals.index.on('changed', () => {
      throw new Error('boom');
    });
    signals.index.emit('changed', { id: 'TASK-1', to: 'ready' });
    await turnEnd();
    assert.equal(asked, ['observe TASK-1', 'schedule']);
    assert.equal(errors, ['changed: boom']);
    signals.index.emit('rescanFound', { count: 2, full: false });
    await close();
    assert.match(readFileSync(logFile, 'utf8'), /info index\.rescan .*rescan found 2 new or changed task files/);
  },
);

wire.run();
