import { hostname } from 'node:os';
import type { DutyGate } from '../../engine/duty-gate.js';
import { claimDuty, releaseDuty, saveDutyState, type DutyOwner } from '../../store/records/duty-lease.js';
import type { Store } from '../../store/commit/store.js';
import { describeError } from '../../core/errors.js';

/** What the duties of a daemon are wired to. */
export interface DutiesOptions {
  store: Store;
  /** This daemon (host and pid), as its leases name it. */
  self?: DutyOwner;
  /** A duty whose owner has not renewed it for this long is taken over (`aof.daemon.dutyTtlMs`). */
  ttlMs: () => number;
  log: (line: string) => void;
  /** Called when this daemon takes a duty (to run it now rather than at the next poll). */
  onTaken?: () => void;
}

/** The daemon's duties: a `DutyGate` renewed in the background, and `close()` that gives them up. */
export interface Duties extends DutyGate {
  close(): Promise<void>;
}

/**
 * Holds team-wide duties in the tree (`tasks/.duties/`): every duty asked for is claimed, then
 * renewed every third of `ttlMs`, so a live owner never lapses and a dead one's duty passes to
 * another daemon within `ttlMs` and one renewal period. A failed renewal counts as not holding it.
 */
export function startDuties(options: DutiesOptions): Duties {
  const { store } = options;
  const self = options.self ?? { host: hostname(), pid: process.pid };
  const held = new Set<string>();
  const others = new Set<string>(); // duties the last claim found held by another daemon
  const asked = new Set<string>();
  const handovers = new Map<string, unknown>();
  let running: Promise<void> | null = null;
  let closed = false;
  const claim = async (duty: string) => {
    try {
      const result = await claimDuty(store.paths, duty, { self, now: store.clock(), ttlMs: options.ttlMs() });
      if (closed) return;
      if (!result.held) others.add(duty);
      else others.delete(duty);
      if (!result.held)
        return void (
          held.delete(duty) &&
          options.log(`duty ${duty} is now held by ${result.record?.owner.host} pid ${result.record?.owner.pid}`)
        );
      if (result.tookOver) {
        handovers.set(duty, result.record?.state);
        options.log(
          `took over duty ${duty}${result.record?.state === undefined ? '' : ' with the state its last owner saved'}`,
        );
      }
      if (!held.has(duty)) {
        held.add(duty);
        options.onTaken?.();
      }
    } catch (err) {
      if (held.delete(duty))
        options.log(`could not renew duty ${duty} (${describeError(err)}): not running it until a renewal succeeds`);
    }
  };
  const renew = () => {
    running ??= Promise.all([...asked].map(claim))
      .then(() => undefined)
      .finally(() => (running = null));
    return running;
  };
  let timer = setTimeout(function tick() {
    void renew().finally(() => {
      if (!closed) timer = setTimeout(tick, Math.max(100, Math.floor(options.ttlMs() / 3)));
    });
  }, 0);
  return {
    owns(duty) {
      if (!asked.has(duty)) {
        asked.add(duty);
        void renew();
      }
      return held.has(duty);
    },
    heldByOther: (duty) => others.has(duty),
    handover(duty) {
      const state = handovers.get(duty);
      handovers.delete(duty);
      return state;
    },
    async save(duty, state) {
      if (held.has(duty) && !(await saveDutyState(store.paths, duty, { self, now: store.clock(), state })))
        held.delete(duty);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
      await Promise.allSettled([...held].map((duty) => releaseDuty(store.paths, duty, self)));
      held.clear();
    },
  };
}
