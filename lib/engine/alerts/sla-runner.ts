import { readFile } from 'node:fs/promises';
import { describeError, hasCode } from '../../core/errors.js';
import { writeDurable } from '../../fs/atomic.js';
import type { OrgChart } from '../../org/schema.js';
import type { Store } from '../../store/commit/store.js';
import { readTaskFile } from '../../store/disk/task-file.js';
import type { IndexEntry, TaskIndex } from '../../store/index/tasks.js';
import { SLA_DUTY, type DutyGate } from '../duty-gate.js';
import { checkSla, formatSlaAlert, toRateLimitMs, type SlaTask, type SlaViolation } from './sla.js';

/** What the SLA check is wired to. */
export interface SlaRunnerOptions {
  store: Store;
  index: TaskIndex;
  loadOrg: () => Promise<OrgChart | null>;
  log: (line: string) => void;
  /** Console alerts (`[AOF] SLA VIOLATION:`), to the daemon's stderr. */
  alert: (text: string) => void;
  /** One owner of the SLA alerts among daemons sharing the tree; without it this daemon alerts. */
  duty?: DutyGate;
}

/** The SLA check of the daemon's poll cycle. */
export interface SlaRunner {
  /** Checks every in-progress task once; returns the violations alerted now (rate-limited ones left out). */
  check(): Promise<SlaViolation[]>;
}

/**
 * Starts the SLA check: in-progress tasks from the index (a task file is read only when its version
 * changed, for `sla` and `project`), one `sla.violation` event and console alert per task per rate
 * window. When each task last alerted is kept in `data/sla-alerts.json`, so a restart does not
 * repeat an alert. Advisory: a task is never moved.
 */
export function startSla(options: SlaRunnerOptions): SlaRunner {
  const { store, index } = options;
  const details = new Map<string, { stamp: string; project: string; maxInProgressMs: number | undefined }>();
  let alerted: Map<string, number> | null = null;
  let running: Promise<SlaViolation[]> | null = null;

  async function check(): Promise<SlaViolation[]> {
    if (options.duty && !options.duty.owns(SLA_DUTY)) {
      alerted = null; // another daemon's duty: read afresh once it is ours
      return [];
    }
    const handed = options.duty?.handover(SLA_DUTY);
    if (handed !== undefined) alerted = toAlerted(handed);
    const org = await options.loadOrg();
    const now = store.clock();
    alerted ??= await readAlerted(store.paths.slaAlerts, options.log);
    const inProgress = [...index.summaries('in-progress')];
    const due: SlaViolation[] = [];
    let changed = false;
    for (const entry of inProgress) {
      const task = await toSlaTask(entry);
      const violation = task && checkSla(task, org, now);
      if (!violation) continue;
      const last = alerted.get(entry.id);
      if (last !== undefined && now.getTime() - last < toRateLimitMs(org, task.project)) continue;
      alerted.set(entry.id, now.getTime());
      due.push(violation);
      changed = true;
    }
    const live = new Set(inProgress.map((entry) => entry.id));
    for (const id of [...alerted.keys()]) if (!live.has(id)) changed = alerted.delete(id) || changed;
    for (const id of [...details.keys()]) if (!live.has(id)) details.delete(id);
    // Recorded before alerting: after a crash in between, an alert is lost rather than repeated.
    if (changed) {
      const record = Object.fromEntries([...alerted].map(([id, ms]) => [id, new Date(ms).toISOString()]));
      await writeDurable(store.paths.slaAlerts, `${JSON.stringify(record, null, 2)}\n`);
      await options.duty?.save(SLA_DUTY, record);
    }
    for (const v of due) {
      await store.events.record(now, [
        {
          type: 'sla.violation',
          taskId: v.task.id,
          actor: 'scheduler',
          payload: { duration: v.durationMs, limit: v.limitMs, agent: v.agent, timestamp: now.getTime() },
        },
      ]);
      options.alert(formatSlaAlert(v));
    }
    return due;
  }

  async function toSlaTask(entry: IndexEntry): Promise<SlaTask | null> {
    let known = details.get(entry.id);
    if (known?.stamp !== entry.stamp) {
      try {
        const { task } = await readTaskFile(entry.path);
        known = { stamp: entry.stamp, project: task.project, maxInProgressMs: task.sla?.maxInProgressMs };
        details.set(entry.id, known);
      } catch {
        return null; // moved or rewritten meanwhile: the index has the new version at the next poll
      }
    }
    return {
      id: entry.id,
      title: entry.title,
      project: known.project,
      updatedAt: entry.updatedAt,
      routing: entry.routing,
      agent: entry.agent,
      maxInProgressMs: known.maxInProgressMs,
    };
  }

  return {
    check() {
      running ??= check().finally(() => (running = null));
      return running;
    },
  };
}

// --- internal ---

async function readAlerted(file: string, log: (line: string) => void): Promise<Map<string, number>> {
  try {
    return toAlerted(JSON.parse(await readFile(file, 'utf8')) as unknown);
  } catch (err) {
    if (!hasCode(err, 'ENOENT'))
      log(`warning: ${file} is unreadable (${describeError(err)}); SLA alerts start a fresh rate window`);
    return new Map();
  }
}

/** When each task last alerted, from `{ id: ISO time }` (a file, or the state the duty's last owner handed over). */
function toAlerted(data: unknown): Map<string, number> {
  const out = new Map<string, number>();
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    for (const [id, at] of Object.entries(data))
      if (typeof at === 'string' && !Number.isNaN(Date.parse(at))) out.set(id, Date.parse(at));
  }
  return out;
}
