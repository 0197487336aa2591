import { describeError } from '../../core/errors.js';
import { createSpendLedger, loadSpendLedger, type SpendLedger } from '../../store/events/spend.js';
import type { SchedulingOptions } from './scheduling.js';

/** The daemon's spend ledger and the end of its subscription to the store's events. */
export interface SpendState {
  ledger: SpendLedger;
  close(): void;
}

/**
 * The spend ledger of the daemon: seeded from this month's `run.usage` events of the log, then told of every one the
 * store records. A log that cannot be read is logged and the ledger starts empty (the daemon still starts).
 */
export async function startSpendLedger(
  options: Pick<SchedulingOptions, 'store' | 'log' | 'onRecorded'>,
): Promise<SpendState> {
  const { store } = options;
  let ledger: SpendLedger;
  try {
    ledger = await loadSpendLedger(store.paths.root, store.clock());
  } catch (err) {
    options.log(`the spend of this month could not be read from the event log: ${describeError(err)}`);
    ledger = createSpendLedger();
  }
  const off = options.onRecorded?.((events) => ledger.observe(events, store.clock())) ?? (() => undefined);
  return { ledger, close: off };
}
