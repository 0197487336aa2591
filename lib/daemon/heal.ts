import type { Clock } from '../core/time.js';
import type { EventLog } from '../store/events.js';
import type { Store } from '../store/store.js';
import type { DaemonLog } from './log.js';

/**
 * Repairs what the index reports, through the commit protocol: a file moved by hand gets its
 * frontmatter healed (the directory wins; `task.transitioned` by actor `filesystem`), and an id
 * found in two directories keeps its newer copy (the other goes to `data/conflicts/`). One repair
 * per id at a time; failures are logged and retried by the next report.
 */
export function createHealer(store: Store, log: (line: string) => void, onHealed: (id: string) => void) {
  const pending = new Set<string>();
  const running = new Set<Promise<void>>();
  let closed = false;
  const heal = async (id: string, why: string) => {
    try {
      const result = await store.commit(id, (current) => {
        if (current.task.status === current.status) return null; // nothing to heal (a duplicate is resolved by the re-read)
        return { task: current.task, body: current.body, status: current.status, reason: 'moved on disk' };
      }, 'filesystem');
      if (result.changed) log(`healed ${id} (${why}): its frontmatter now says ${result.after.status}`);
      onHealed(id);
    } catch (err) {
      log(`could not repair ${id} (${why}): ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      pending.delete(id);
    }
  };
  return {
    repair(id: string, why: string): void {
      if (closed || pending.has(id)) return;
      pending.add(id);
      const job = heal(id, why);
      running.add(job);
      void job.finally(() => running.delete(job));
    },
    async close(): Promise<void> {
      closed = true;
      await Promise.allSettled([...running]);
    },
  };
}

/** Logs an invalid task file (once per change of the file) and records `task.invalid`. */
export async function recordInvalid(events: EventLog, clock: Clock, log: DaemonLog, file: { path: string; status: string; message: string }): Promise<void> {
  log.warn('task.invalid', { path: file.path, message: file.message });
  const name = file.path.split('/').pop() ?? '';
  await events.record(clock(), [{ type: 'task.invalid', ...(name.endsWith('.md') ? { taskId: name.slice(0, -3) } : {}), actor: 'system', payload: { path: file.path, status: file.status, message: file.message } }]);
}
