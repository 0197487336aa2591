import { isSvcError } from '../../core/errors.js';
import { addUsage, NO_USAGE, type Usage } from '../../core/usage.js';
import type { Store } from '../commit/store.js';
import type { StoredTask } from '../disk/task-file.js';

/** One run's usage as its end reports it: the task, the run's log key, who ran it and with what. */
export interface RunUsageRecord {
  taskId: string;
  /** The run log's key, `<lease session>-<n>`: a run recorded once is never counted again. */
  run: string;
  agent: string;
  /** `claude-code`, `codex`, `gemini`, `command`, ... */
  runtime: string;
  model: string | null;
  /** The CLI's own session, which a later run of the same agent resumes; null when it has none. */
  cliSession: string | null;
  usage: Usage;
}

/** `metadata.usage`: the task's running total over its runs, and the last run counted. */
export interface TaskUsage extends Usage {
  runs: number;
  lastRun: string;
}

/** `metadata.runtimeSessions[agent]`: the CLI session a later run of that agent resumes. */
export interface RuntimeSession {
  runtime: string;
  id: string;
}

/**
 * Adds one run's usage to the task's total (`metadata.usage`), keeps the agent's CLI session
 * (`metadata.runtimeSessions`) and logs `run.usage`, in one commit, whatever the task's status. False when nothing
 * changed: the run is the last one counted (a restarted daemon recording it again), or the task is archived or gone.
 */
export async function recordRunUsage(store: Store, record: RunUsageRecord): Promise<boolean> {
  return commitUsage(store, record, () => record.run);
}

/**
 * Records usage an agent reports itself (`svc_task_update` with `usage`), keyed `<session>-report-<n>`: the session
 * named (else the task's lease, else the agent), `n` counting the task's runs; so every report counts once.
 */
export async function reportRunUsage(
  store: Store,
  record: Omit<RunUsageRecord, 'run'> & { session: string | null },
): Promise<boolean> {
  return commitUsage(store, record, (current) => {
    const session = record.session ?? current.task.lease?.sessionId ?? record.agent;
    return `${session}-report-${(readTaskUsage(current.task.metadata)?.runs ?? 0) + 1}`;
  });
}

/** The task's usage total in its metadata, or null when it has none (or not of the right shape). */
export function readTaskUsage(metadata: Record<string, unknown>): TaskUsage | null {
  const usage = metadata.usage;
  if (!isRecord(usage)) return null;
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, costUsd, runs, lastRun } = usage;
  const counts = [inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, runs];
  if (!counts.every(isCount) || typeof lastRun !== 'string') return null;
  if (costUsd !== null && !(typeof costUsd === 'number' && costUsd >= 0)) return null;
  const [input, output, cacheRead, cacheWrite, count] = counts as number[];
  return {
    inputTokens: input!,
    outputTokens: output!,
    cacheReadTokens: cacheRead!,
    cacheWriteTokens: cacheWrite!,
    costUsd: costUsd as number | null,
    runs: count!,
    lastRun,
  };
}

/** The CLI session `agent` last ran the task in, or null. */
export function readRuntimeSession(metadata: Readonly<Record<string, unknown>>, agent: string): RuntimeSession | null {
  const session = sessionEntry(metadata, agent);
  return session ? { runtime: session.runtime, id: session.id } : null;
}

/** When `agent`'s CLI session of the task was last recorded (ISO), or null when it has none. */
export function readRuntimeSessionAt(metadata: Readonly<Record<string, unknown>>, agent: string): string | null {
  const at = sessionEntry(metadata, agent)?.at;
  return typeof at === 'string' ? at : null;
}

// --- internal ---

type UsageInput = Omit<RunUsageRecord, 'run'>;

async function commitUsage(store: Store, record: UsageInput, toRun: (current: StoredTask) => string): Promise<boolean> {
  try {
    const result = await store.commit(
      record.taskId,
      (current) => {
        const run = toRun(current);
        const before = readTaskUsage(current.task.metadata);
        if (before?.lastRun === run) return null;
        const total: TaskUsage = {
          ...addUsage(before ?? NO_USAGE, record.usage),
          runs: (before?.runs ?? 0) + 1,
          lastRun: run,
        };
        const metadata: Record<string, unknown> = { ...current.task.metadata, usage: total };
        if (record.cliSession !== null) metadata.runtimeSessions = toSessions(current, record, store.clock());
        return {
          task: { ...current.task, metadata },
          body: current.body,
          status: current.status,
          touch: false,
          events: [
            { type: 'run.usage', taskId: current.task.id, actor: record.agent, payload: toPayload(record, run) },
          ],
        };
      },
      record.agent,
    );
    return result.changed;
  } catch (err) {
    if (isSvcError(err, 'not_found')) return false;
    throw err;
  }
}

function toSessions(current: StoredTask, record: UsageInput, now: Date): Record<string, unknown> {
  const sessions = isRecord(current.task.metadata.runtimeSessions) ? current.task.metadata.runtimeSessions : {};
  return { ...sessions, [record.agent]: { runtime: record.runtime, id: record.cliSession, at: now.toISOString() } };
}

function toPayload(record: UsageInput, run: string) {
  const { usage } = record;
  return {
    agent: record.agent,
    runtime: record.runtime,
    model: record.model,
    sessionId: record.cliSession,
    run,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.cacheReadTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    costUsd: usage.costUsd,
  };
}

/** `metadata.runtimeSessions[agent]` when it has a runtime and an id. */
function sessionEntry(
  metadata: Readonly<Record<string, unknown>>,
  agent: string,
): (RuntimeSession & { at?: unknown }) | null {
  const sessions = metadata.runtimeSessions;
  if (!isRecord(sessions) || !Object.hasOwn(sessions, agent)) return null;
  const session = sessions[agent];
  if (!isRecord(session) || typeof session.runtime !== 'string' || typeof session.id !== 'string') return null;
  return { runtime: session.runtime, id: session.id, at: session.at };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
