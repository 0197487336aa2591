import { describeError, hasCode } from '../core/errors.js';
import type { Clock } from '../core/time/clock.js';
import { healMovedTask } from '../store/changes/heal.js';
import type { EventLog } from '../store/events/log.js';
import type { Store } from '../store/commit/store.js';
import type { DaemonLog } from './instance/log.js';

/** What the healer logs to and tells, and the commits it leaves alone. */
export interface HealerOptions {
  log: (line: string) => void;
  onHealed: (id: string) => void;
  /**
   * Takes a report of `id` when a commit of it is in flight in this process (two copies seen in the middle of the
   * daemon's own move are no duplicate), to look at the id again once the commit ends; false when none is.
   */
  defer?: (id: string) => boolean;
}

/**
 * Repairs what the index reports, through the commit protocol: a file moved by hand gets its
 * frontmatter healed (the directory wins; `task.transitioned` by actor `filesystem`), and an id
 * found in two directories keeps its newer copy (the other goes to `data/conflicts/`). One repair
 * per id at a time; none of an id whose commit is in flight in this process (`defer`). A repair that fails
 * (its task locked by a writer that died before recording itself in the lock, which counts as stale only
 * after 10 s, say) is tried again after a growing pause: the file may never change again, so no later report
 * of the index would bring it back.
 */
export function createHealer(store: Store, { log, onHealed, defer }: HealerOptions) {
  const pending = new Set<string>();
  const running = new Set<Promise<void>>();
  const failures = new Map<string, number>(); // ids whose last repair failed, and how many times in a row
  const timers = new Map<string, NodeJS.Timeout>();
  let closed = false;
  const heal = async (id: string, why: string) => {
    try {
      const result = await healMovedTask(store, id);
      failures.delete(id);
      if (result.changed) log(`healed ${id} (${why}): its frontmatter now says ${result.after.status}`);
      onHealed(id);
    } catch (err) {
      const message = describeError(err);
      if (hasCode(err, 'not_found')) {
        // gone: nothing to repair
        failures.delete(id);
        log(`could not repair ${id} (${why}): ${message}`);
        return;
      }
      const failed = failures.get(id) ?? 0;
      failures.set(id, failed + 1);
      const pause = HEAL_RETRY_MS[Math.min(failed, HEAL_RETRY_MS.length - 1)]!;
      log(`could not repair ${id} (${why}): ${message}; trying again in ${pause / 1000} s`);
      if (closed) return;
      const timer = setTimeout(() => {
        timers.delete(id);
        repair(id, why);
      }, pause);
      timer.unref();
      timers.set(id, timer);
    } finally {
      pending.delete(id);
    }
  };
  const repair = (id: string, why: string): void => {
    if (closed || pending.has(id) || defer?.(id)) return;
    clearTimeout(timers.get(id)); // a new report repairs now (the count of failures is kept)
    timers.delete(id);
    pending.add(id);
    const job = heal(id, why);
    running.add(job);
    void job.finally(() => running.delete(job));
  };
  return {
    repair,
    async close(): Promise<void> {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running]);
    },
  };
}

/** Pauses before each new try of a failed repair; the last repeats. */
const HEAL_RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];

/** Logs an invalid task file (once per change of the file) and records `task.invalid`. */
export async function recordInvalid(
  { events, clock, log }: { events: EventLog; clock: Clock; log: DaemonLog },
  file: { path: string; status: string; message: string },
): Promise<void> {
  log.warn('task.invalid', { path: file.path, message: file.message });
  const name = file.path.split('/').pop() ?? '';
  await events.record(clock(), [
    {
      type: 'task.invalid',
      ...(name.endsWith('.md') ? { taskId: name.slice(0, -3) } : {}),
      actor: 'system',
      payload: { path: file.path, status: file.status, message: file.message },
    },
  ]);
}
