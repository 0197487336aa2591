import { readFile } from 'node:fs/promises';
import { describeError, hasCode } from '../../core/errors.js';
import { toTimerDelay } from '../../core/time/timer.js';
import { writeDurable } from '../../fs/atomic.js';
import type { Store } from '../../store/commit/store.js';
import type { IndexEntry, TaskIndex } from '../../store/index/tasks.js';
import { OVERDUE_DUTY, type DutyGate } from '../duty-gate.js';
import { formatOverdueAlert, isOverdue, OPEN_STATUSES, type DueTask } from './overdue.js';

/** What the overdue check is wired to. */
export interface OverdueOptions {
  store: Store;
  index: TaskIndex;
  log: (line: string) => void;
  /** Console alerts (`[AOF] OVERDUE:`), to the daemon's stderr. */
  alert: (text: string) => void;
  /** Least time between two checks asked for by `request()` (200 ms). */
  minGapMs?: number;
  /** One owner of the alerts among the daemons sharing the tree (absent: this daemon alone). */
  duty?: DutyGate;
}

/** The daemon's overdue check. */
export interface OverdueRunner {
  /** Alerts every open task whose `dueAt` passed and was not alerted yet; returns those alerted now. */
  check(): Promise<DueTask[]>;
  /**
   * Asks for a check soon: requests within `minGapMs` of the last check share one (the daemon asks on every tick
   * request).
   */
  request(): void;
  close(): void;
}

/**
 * Starts the overdue check: open tasks with a `dueAt` from the index; one `task.overdue` event and
 * console alert per task and due time. What was alerted is kept in `data/overdue-alerts.json` (as the
 * SLA alerts keep their rate window), so a restart does not repeat an alert; a later `dueAt` alerts
 * again. A timer wakes the check at the next due time, so an alert does not wait for the poll.
 * With daemons sharing the tree, only the owner of the `overdue` duty alerts, and a new owner goes
 * on from what the last one saved (docs/several-hosts.md).
 */
export function startOverdue(options: OverdueOptions): OverdueRunner {
  const { store, index } = options;
  let alerted: Map<string, string> | null = null;
  let running: Promise<DueTask[]> | null = null;
  let wake: { at: number; timer: NodeJS.Timeout } | null = null;
  let closed = false;

  async function check(): Promise<DueTask[]> {
    if (options.duty && !options.duty.owns(OVERDUE_DUTY)) {
      alerted = null; // another daemon's duty: read afresh once it is ours
      return [];
    }
    const handed = options.duty?.handover(OVERDUE_DUTY);
    if (handed !== undefined) alerted = toAlerted(handed);
    const now = store.clock();
    alerted ??= await readAlerted(store.paths.overdueAlerts, options.log);
    const open = OPEN_STATUSES.flatMap((status) =>
      [...index.summaries(status)].filter((e) => e.dueAt !== undefined),
    ).map(toDueTask);
    const due = open.filter((task) => isOverdue(task, now) && alerted!.get(task.id) !== task.dueAt);
    const live = new Set(open.map((task) => task.id));
    let changed = due.length > 0;
    for (const id of [...alerted.keys()]) if (!live.has(id)) changed = alerted.delete(id) || changed;
    for (const task of due) alerted.set(task.id, task.dueAt);
    // Recorded before alerting: after a crash in between, an alert is lost rather than repeated.
    if (changed) {
      await writeDurable(store.paths.overdueAlerts, `${JSON.stringify(Object.fromEntries(alerted), null, 2)}\n`);
      await options.duty?.save(OVERDUE_DUTY, Object.fromEntries(alerted));
    }
    for (const task of due) {
      await store.events.record(now, [
        {
          type: 'task.overdue',
          taskId: task.id,
          actor: 'scheduler',
          payload: { dueAt: task.dueAt, status: task.status, agent: task.agent ?? null },
        },
      ]);
      options.alert(formatOverdueAlert(task, now));
    }
    armTimer(
      open.filter((task) => !isOverdue(task, now)),
      now,
    );
    return due;
  }

  function armTimer(upcoming: readonly DueTask[], now: Date): void {
    const next = Math.min(...upcoming.map((task) => Date.parse(task.dueAt)));
    if (closed || !Number.isFinite(next) || (wake && wake.at <= next && wake.at > now.getTime())) return;
    if (wake) clearTimeout(wake.timer);
    const delay = toTimerDelay(next - now.getTime() + 5);
    const timer = setTimeout(() => {
      wake = null;
      void run().catch(fail);
    }, delay);
    timer.unref();
    wake = { at: now.getTime() + delay - 5, timer };
  }

  let lastRun = 0;
  let pending: NodeJS.Timeout | null = null;
  const run = () => {
    lastRun = Date.now();
    return (running ??= check().finally(() => (running = null)));
  };
  const fail = (err: unknown) => options.log(`overdue check failed: ${describeError(err)}`);
  return {
    check: run,
    request() {
      if (closed || pending) return;
      pending = setTimeout(
        () => {
          pending = null;
          void run().catch(fail);
        },
        Math.max(0, lastRun + (options.minGapMs ?? 200) - Date.now()),
      );
      pending.unref();
    },
    close() {
      closed = true;
      if (wake) clearTimeout(wake.timer);
      if (pending) clearTimeout(pending);
    },
  };
}

// --- internal ---

function toDueTask(entry: IndexEntry): DueTask {
  return { id: entry.id, title: entry.title, status: entry.status, dueAt: entry.dueAt!, agent: entry.agent };
}

async function readAlerted(file: string, log: (line: string) => void): Promise<Map<string, string>> {
  try {
    return toAlerted(JSON.parse(await readFile(file, 'utf8')));
  } catch (err) {
    if (!hasCode(err, 'ENOENT'))
      log(`warning: ${file} is unreadable (${describeError(err)}); overdue tasks may be alerted again`);
    return new Map();
  }
}

/**
 * The due time each task was alerted for, from `{ id: ISO time }` (a file, or the state the duty's last owner handed
 * over).
 */
function toAlerted(data: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (data && typeof data === 'object' && !Array.isArray(data))
    for (const [id, at] of Object.entries(data)) if (typeof at === 'string') out.set(id, at);
  return out;
}
