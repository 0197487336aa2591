import { trackCommits } from '../store/changes/tracked.js';
import type { Store } from '../store/commit/store.js';
import { createHealer, type HealerOptions } from './heal.js';
import type { DaemonState } from './options.js';
import { isReadyWaiting, mayDispatch, toTickChange, type Ticks } from './ticks.js';

/**
 * The daemon's store over `disk` (`trackCommits`): each result goes to the index and to the ticks' records, and the
 * healer, which writes through it too, leaves an id alone while a commit of it is in flight, and looks again after.
 */
export function startOwnCommits(
  disk: Store,
  options: Pick<HealerOptions, 'log' | 'onHealed'> & { state: Readonly<Pick<DaemonState, 'index'>>; ticks: Ticks },
) {
  const { state, ticks } = options;
  const own = trackCommits(disk, {
    onResult: (after, before) => {
      state.index?.apply(after);
      ticks.record(after.task.id, {
        mayDispatch: mayDispatch(toTickChange(after, before), () => isReadyWaiting(state.index)),
      });
    },
    onSettled: (id) => state.index?.settled(id),
    isKnownId: (arg) => state.index?.get(arg) !== undefined,
  });
  const rechecks = new Set<string>(); // ids to read again once their commit ends (one look, however many reports)
  const healer = createHealer(own.store, {
    log: options.log,
    onHealed: options.onHealed,
    defer: (id) => {
      if (!own.committing(id)) return false;
      if (rechecks.has(id)) return true;
      rechecks.add(id);
      own.whenSettled(id, () => {
        rechecks.delete(id);
        void state.index?.update([id]).catch(() => undefined);
      });
      return true;
    },
  });
  return { store: own.store, healer, inFlight: own.inFlight };
}
