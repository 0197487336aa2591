import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { toDaemonSettings } from '../org/org-chart.js';
import type { OrgChart } from '../org/schema.js';
import type { Fault } from '../store/commit/protocol.js';
import type { Store } from '../store/commit/store.js';
import type { StoredTask } from '../store/disk/task-file.js';
import { toFailureReason, type Adapter, type RunEnd, type SpawnRequest } from '../core/spawn.js';
import {
  deadletterTask,
  describeFailure,
  leaseTask,
  recordFailure,
  type Failure,
  type LeaseOwner,
} from '../store/changes/dispatch.js';
import { formatDeadletterAlert } from './deadletter-alert.js';
import type { Action, AdapterKind } from './plan.js';
import { toPrompt } from './prompt.js';
import { toResumePrompt } from './resume-prompt.js';
import { readRuntimeSessionAt } from '../store/changes/usage.js';
import { prepareWorkspace } from './workspaces/step.js';
import { describeError } from '../core/errors.js';

/** What one dispatch needs from the scheduler. */
export interface RunContext {
  store: Store;
  adapters: Partial<Record<AdapterKind, Adapter>>;
  org: OrgChart | null;
  ttlMs: number;
  log: (line: string) => void;
  alert: (text: string) => void;
  onCommitted?: (ids: readonly string[]) => void | Promise<void>;
  /** The daemon granting leases (recorded in each lease). */
  owner?: LeaseOwner;
  /** Asks for another tick (after a run ends or a failure frees a slot). */
  schedule: () => void;
  /** Receives the promise of each run's end handling, so the owner can wait for runs to finish. */
  track?: (ended: Promise<void>) => void;
  /** Fault injection for crash tests: called at each step of a dispatch. */
  fault?: Fault;
}

/** What a spawn marker (`data/spawns/<id>@<session>`) records: enough to log the dispatch after a crash. */
export interface SpawnMarker {
  agent: string;
  adapter: AdapterKind;
}

/**
 * Leases the task, hands the spawn to its adapter and watches the run: a spawn that cannot start,
 * or a run that ends while the task is still in progress under its session, is a failed attempt.
 * Resolves true once the spawn was handed to the adapter.
 *
 * Recoverable at every instant (docs/architecture.md, "Adapters"): the spawn marker is written
 * before the lease is committed and removed only once the adapter has the spawn, so a daemon that
 * dies in between finds the marker at its next start and sends the task back to ready.
 */
export async function runDispatch(ctx: RunContext, action: Extract<Action, { kind: 'dispatch' }>): Promise<boolean> {
  const sessionId = ctx.store.newSessionId();
  const marker = await writeMarker(
    ctx.store.paths.spawns,
    { taskId: action.taskId, sessionId },
    { agent: action.agent, adapter: action.adapter },
  );
  try {
    ctx.fault?.('dispatch.marked');
    const leased = await leaseTask(ctx.store, action.taskId, {
      agent: action.agent,
      adapter: action.adapter,
      ttlMs: ctx.ttlMs,
      sessionId,
      ...(ctx.owner ? { owner: ctx.owner } : {}),
    });
    if (!leased) {
      // Not ready after all (another daemon took it, or the index went by a cached listing): look again.
      await ctx.onCommitted?.([action.taskId]);
      return false;
    }
    ctx.fault?.('dispatch.leased');
    await ctx.onCommitted?.([action.taskId]);
    return await handOver(ctx, action, { sessionId: leased.sessionId, after: leased.result.after });
  } finally {
    await unlink(marker).catch(() => undefined);
  }
}

// --- internal ---

/** Gives a task leased by `leased.sessionId` (`leased.after`: the task as leased) to its adapter. */
async function handOver(
  ctx: RunContext,
  action: Extract<Action, { kind: 'dispatch' }>,
  leased: { sessionId: string; after: StoredTask },
): Promise<boolean> {
  const { sessionId, after } = leased;
  const { body } = after;
  let task = after.task;
  const request: SpawnRequest = {
    id: sessionId,
    taskId: task.id,
    agent: action.agent,
    sessionId,
    prompt: '',
    task: {
      title: task.title,
      priority: task.priority,
      routing: task.routing,
      gate: task.gate,
      body,
      metadata: task.metadata,
    },
  };
  const adapter = ctx.adapters[action.adapter];
  try {
    if (!adapter)
      throw Object.assign(new Error(`no ${action.adapter} adapter is available`), { reason: 'adapter_unavailable' });
    const workspace = await prepareWorkspace(
      { store: ctx.store, org: ctx.org, agent: action.agent, sessionId, host: ctx.owner?.host },
      after,
    );
    if (workspace) {
      task = { ...task, workspace };
      request.workspace = { path: workspace.path, branch: workspace.branch };
    }
    request.prompt = toPrompt(task, body, { sessionId });
    const since = readRuntimeSessionAt(task.metadata, action.agent);
    if (since) request.resumePrompt = toResumePrompt(task, body, { sessionId, since });
    const run = await adapter.spawn(request);
    ctx.fault?.('dispatch.handed');
    ctx.log(`dispatched ${task.id} to ${action.agent} via ${action.adapter} (session ${sessionId})`);
    if (run.ended) {
      const handled = run.ended.then((end) => onEnded(ctx, request, end));
      ctx.track?.(handled);
    }
    return true;
  } catch (err) {
    const reason = (err as { reason?: string }).reason ?? toFailureReason(err);
    const message = describeError(err);
    ctx.log(`dispatch of ${task.id} to ${action.agent} via ${action.adapter} failed: ${reason}: ${message}`);
    await fail(
      ctx,
      request,
      reason === 'workspace_failed' || reason === 'workspace_elsewhere' ? `${reason}: ${message}` : reason,
    );
    return false;
  }
}

async function writeMarker(
  dir: string,
  run: { taskId: string; sessionId: string },
  content: SpawnMarker,
): Promise<string> {
  const marker = `${dir}/${run.taskId}@${run.sessionId}`;
  const text = JSON.stringify(content);
  await writeFile(marker, text).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
    await mkdir(dir, { recursive: true }); // the first dispatch of this root
    await writeFile(marker, text);
  });
  return marker;
}

/** Pauses before each new try of a run's end check that failed (a lock held by another host, say). */
const END_CHECK_RETRIES_MS = [500, 1000, 2000, 4000, 8000, 15_000];

/**
 * Checks a run that ended: still in progress under its session means a failed attempt. A check that
 * fails (the task locked by another writer past the wait) is tried again, with growing pauses, so
 * the task is not left in progress until its lease expires.
 */
async function onEnded(ctx: RunContext, request: SpawnRequest, end: RunEnd): Promise<void> {
  const reason: Failure = {
    reason: end.ok ? 'ended_without_completion' : (end.reason ?? 'run_failed'),
    ...(end.exitCode !== undefined ? { exitCode: end.exitCode } : {}),
    ...(end.signal ? { signal: end.signal } : {}),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      await fail(ctx, request, reason);
      break;
    } catch (err) {
      const pause = END_CHECK_RETRIES_MS[attempt];
      const message = describeError(err);
      if (pause === undefined) {
        ctx.log(
          `checking the end of ${request.taskId} failed ${attempt + 1} times, ` +
            `last: ${message}; its lease (until it expires) keeps it in progress`,
        );
        break;
      }
      ctx.log(`checking the end of ${request.taskId} failed (${message}); trying again in ${pause} ms`);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
  ctx.schedule();
}

async function fail(ctx: RunContext, request: SpawnRequest, reason: string | Failure): Promise<void> {
  const failure = typeof reason === 'string' ? { reason } : reason;
  const failures = await recordFailure(
    ctx.store,
    { taskId: request.taskId, sessionId: request.sessionId, agent: request.agent, failure },
    toDaemonSettings(ctx.org).retryBackoffMs,
  );
  if (failures === null) return;
  await ctx.onCommitted?.([request.taskId]);
  ctx.log(`attempt ${failures} of ${request.taskId} by ${request.agent} failed: ${describeFailure(failure)}`);
  const dead = await deadletterTask(ctx.store, request.taskId, failure);
  if (dead) {
    ctx.alert(formatDeadletterAlert(dead, request.agent));
    await ctx.onCommitted?.([request.taskId]);
  }
  ctx.schedule();
}
