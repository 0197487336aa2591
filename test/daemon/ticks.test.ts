import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mayDispatch, type TickChange } from '../../lib/daemon/ticks.js';

const ticks = suite('daemon.mayDispatch');

// [change, with a ready task waiting, without one]
const CASES: [TickChange, boolean, boolean][] = [
  [{ to: 'backlog' }, false, false],
  [{ to: 'ready' }, true, true],
  [{ from: 'backlog', to: 'ready' }, true, true],
  [{ from: 'ready', to: 'ready' }, true, true],
  [{ from: 'backlog', to: 'blocked' }, false, false],
  [{ from: 'blocked', to: 'backlog' }, false, false],
  [{ from: 'backlog', to: 'backlog' }, false, false],
  [{ from: 'ready', to: 'in-progress' }, false, false],
  [{ from: 'ready', to: 'backlog' }, false, false],
  [{ from: 'in-progress', to: 'blocked' }, true, false],
  [{ from: 'in-progress', to: 'done' }, true, false],
  [{ from: 'in-progress', to: 'in-progress', leaseMoved: false }, false, false],
  [{ from: 'in-progress', to: 'in-progress', leaseMoved: true }, true, true],
  [{ from: 'blocked', to: 'cancelled' }, true, false],
  [{ from: 'backlog', to: 'deadletter' }, true, false],
  [{ from: 'backlog' }, true, false],
];

ticks(
  'a change asks for a tick only when it can make a dispatch; one that frees a slot or a dependent, only while a task is ready',
  () => {
    for (const [change, withReady, withoutReady] of CASES) {
      assert.is(
        mayDispatch(change, () => true),
        withReady,
        `${JSON.stringify(change)} with a ready task`,
      );
      assert.is(
        mayDispatch(change, () => false),
        withoutReady,
        `${JSON.stringify(change)} without one`,
      );
    }
  },
);

ticks.run();
