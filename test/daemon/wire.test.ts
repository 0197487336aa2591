import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Scheduling } from '../../lib/daemon/scheduling/scheduling.js';
import type { IndexChange } from '../../lib/store/index/tasks.js';
import { createEventRetry } from '../../lib/daemon/event-retry.js';
import { createHealer } from '../../lib/daemon/heal.js';
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
  const healer = createHealer(
    store,
    () => undefined,
    () => undefined,
  );
  const changes = createChangeFeed();
  const events = createEventRetry({ events: store.events, log: () => log });
  wireDaemon(signals, { store, clock: store.clock, log, events, healer, changes, state });
  const close = async () => {
    await healer.close();
    await events.close();
    return await log.close();
  };
  return { signals, asked, changes, errors, logFile, close };
}

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
  assert.equal(asked, ['schedule']);
  await close();
});

wire(
  'a rescan that found files is logged; a listener that throws is reported with its signal and the others still run',
  async () => {
    const { signals, asked, errors, logFile, close } = await wired();
    signals.index.on('changed', () => {
      throw new Error('boom');
    });
    signals.index.emit('changed', { id: 'TASK-1', to: 'ready' });
    assert.equal(asked, ['observe TASK-1', 'schedule']);
    assert.equal(errors, ['changed: boom']);
    signals.index.emit('rescanFound', { count: 2, full: false });
    await close();
    assert.match(readFileSync(logFile, 'utf8'), /info index\.rescan .*rescan found 2 new or changed task files/);
  },
);

wire.run();
