import type { Status } from '../core/status.js';
import type { StoredTask } from '../store/disk/task-file.js';
import type { TaskIndex } from '../store/index/tasks.js';

/** How a task changed, as far as the scheduler cares: its status before (absent for a new task) and after. */
export interface TickChange {
  from?: Status | undefined;
  to?: Status | undefined;
  /** For a task in progress before and after: its lease went to another agent or session. */
  leaseMoved?: boolean;
}

/**
 * Whether a change can make a dispatch, conservatively (true when it may). A task reaching ready (or changed while
 * ready) can; a task leaving in-progress frees a slot, and a task reaching done, cancelled or deadletter (or gone)
 * may release its dependents, which matters only while a task is ready (`readyWaiting`); a task in progress whose
 * lease moved can. A task leaving ready (its dispatch, say) holds no slot; a new task in backlog, a block or an
 * unblock of a task not in progress, a note: cannot.
 */
export function mayDispatch(change: TickChange, readyWaiting: () => boolean): boolean {
  const { from, to } = change;
  if (to === 'ready') return true;
  if (from === 'in-progress' && to === 'in-progress') return change.leaseMoved === true;
  if (from === 'in-progress' || to === undefined || TERMINAL.has(to)) return readyWaiting();
  return false;
}

/** A task is ready (true while the index is not up: then nothing is known). */
export function isReadyWaiting(index: TaskIndex | null): boolean {
  return index ? !index.summaries('ready').next().done : true;
}

/** The statuses a task's dependents wait for (or stop waiting on). */
const TERMINAL: ReadonlySet<Status> = new Set<Status>(['done', 'cancelled', 'deadletter']);

/** The scheduler's view of a commit's result (`before` absent for a create). */
export function toTickChange(after: StoredTask, before?: StoredTask): TickChange {
  const leaseMoved =
    before?.status === 'in-progress' &&
    after.status === 'in-progress' &&
    (before.task.lease?.agent !== after.task.lease?.agent ||
      before.task.lease?.sessionId !== after.task.lease?.sessionId);
  return { ...(before ? { from: before.status } : {}), to: after.status, leaseMoved };
}

/** One scheduler tick per event-loop turn, and what the socket's commits ask of it. */
export interface Ticks {
  /** Asks for a tick: every request of one turn of the event loop makes one, at the end of that turn. */
  request(): void;
  /** Records whether a commit of `id` can make a dispatch (read, once, by `committedAsk`). */
  record(id: string, commit: { mayDispatch: boolean }): void;
  /** Whether the tool calls that committed these ids ask for a tick: an id without a record does. */
  committedAsk(ids: readonly string[]): boolean;
}

/** Most records kept (the oldest are dropped: an id without a record asks for a tick). */
const MAX_RECORDS = 10_000;

/** Ticks of `schedule`, coalesced per turn with `setImmediate`. */
export function createTicks(schedule: () => void): Ticks {
  let asked = false;
  const records = new Map<string, boolean>();
  return {
    request() {
      if (asked) return;
      asked = true;
      setImmediate(() => {
        asked = false;
        schedule();
      });
    },
    record(id, { mayDispatch: may }) {
      const before = records.get(id) ?? false; // two commits of one id in one call: either may dispatch
      records.delete(id);
      records.set(id, before || may);
      if (records.size > MAX_RECORDS) records.delete(records.keys().next().value!);
    },
    committedAsk(ids) {
      let ask = false;
      for (const id of ids) {
        const may = records.get(id);
        records.delete(id);
        if (may !== false) ask = true;
      }
      return ask;
    },
  };
}
