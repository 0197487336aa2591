import { hostname } from 'node:os';
import { join } from 'node:path';
import { CHECK_AGENT } from '../../core/spawn.js';
import type { Lease } from '../../core/task.js';
import { loadWorkflow } from '../../org/workflow.js';
import type { OrgChart } from '../../org/schema.js';
import { leaseChecks, toPendingCheck } from '../../store/changes/gates/checking.js';
import { finishChecks, type CheckOutcome, type ChecksEnd } from '../../store/changes/gates/check-result.js';
import type { GateFlow } from '../../store/changes/gates/complete.js';
import type { Store } from '../../store/commit/store.js';
import { endLeftover } from './pid-file.js';
import { CHECK_END_MS, type RunningCheck } from './process.js';
import { runCheck } from './run-check.js';
import { describeError } from '../../core/errors.js';

/** What the check runner works with. */
export interface CheckRunnerOptions {
  store: Store;
  /** The tasks in progress (the daemon's index). */
  inProgress: () => Iterable<{ id: string; lease?: Lease | undefined }>;
  loadOrg: () => Promise<OrgChart | null>;
  /** The environment checks start from (PATH, HOME, ...). */
  env: Record<string, string | undefined>;
  log: (line: string) => void;
  /** The ids the runner committed, so the index updates. */
  onCommitted?: (ids: readonly string[]) => void | Promise<void>;
  host?: string | undefined;
  /**
   * Whether a run of the task is still alive on this host (the agent that completed it, finishing): its checks start
   * once it is gone.
   */
  isRunAlive?: (taskId: string) => boolean;
}

/** Runs the checks of tasks leased to `svc`: `scan` starts what is due, `cancel` ends a task's check. */
export interface CheckRunner {
  scan(): void;
  cancel(taskId: string): void;
  /** Resolves when no check runs. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The daemon's check runner (docs/workspaces.md): every task in progress under a lease to `svc`
 * held on this host has its checks run, in order, in its worktree, once the run that completed it
 * has exited; the first that fails ends the run. A restarted daemon finds such tasks in progress
 * and runs their checks again (a check's process group left by a killed daemon is ended first).
 * The lease is set to expire once the checks' timeouts are over (and a minute more), so one stuck
 * past them is expired like any other lease. The result is committed under that lease, so a task
 * cancelled meanwhile stays cancelled.
 */
export function startCheckRunner(options: CheckRunnerOptions): CheckRunner {
  const host = options.host ?? hostname();
  const running = new Map<string, { session: string; current?: RunningCheck; done: Promise<void> }>();
  let closed = false;
  const start = (id: string, session: string) => {
    const entry: { session: string; current?: RunningCheck; done: Promise<void> } = {
      session,
      done: Promise.resolve(),
    };
    running.set(id, entry);
    entry.done = runTask(
      options,
      { id, session },
      { onCheck: (check) => (entry.current = check), isClosed: () => closed },
    )
      .catch((err: unknown) => options.log(`checks of ${id} failed to run: ${describeError(err)}`))
      .finally(() => running.delete(id));
  };
  return {
    scan() {
      if (closed) return;
      for (const task of options.inProgress()) {
        const lease = task.lease;
        if (
          lease?.agent !== CHECK_AGENT ||
          running.has(task.id) ||
          (lease.host && lease.host !== host) ||
          options.isRunAlive?.(task.id)
        )
          continue;
        start(task.id, lease.sessionId);
      }
    },
    cancel(taskId) {
      running.get(taskId)?.current?.abort();
    },
    async idle() {
      while (running.size) await Promise.allSettled([...running.values()].map((entry) => entry.done));
    },
    async close() {
      closed = true;
      for (const entry of running.values()) entry.current?.abort();
      await Promise.allSettled([...running.values()].map((entry) => entry.done));
    },
  };
}

// --- internal ---

/**
 * Runs the checks of task `run.id` under the lease of session `run.session`; `hooks` are told the check running and
 * asked whether the runner closed.
 */
async function runTask(
  options: CheckRunnerOptions,
  run: { id: string; session: string },
  hooks: { onCheck: (check: RunningCheck) => void; isClosed: () => boolean },
): Promise<void> {
  const { id, session } = run;
  const { onCheck, isClosed } = hooks;
  const { store, log } = options;
  const stored = await store.get(id);
  const pending = toPendingCheck(stored.task);
  if (stored.task.lease?.sessionId !== session || !pending) return;
  const org = await options.loadOrg().catch(() => null);
  // the next scan tries again
  if (!org) return log(`checks of ${id} wait: no valid org chart defines them right now (svc org validate)`);
  const pidFile = join(store.paths.checks, id);
  await endLeftover(pidFile);
  // cancelled or expired meanwhile
  if (!(await leaseChecks(store, { taskId: id, sessionId: session }, toChecksLeaseMs(pending.checks, org)))) return;
  const outcomes: CheckOutcome[] = [];
  let end: ChecksEnd | null = null;
  log(`running checks ${pending.checks.join(', ')} of ${id}`);
  for (const name of pending.checks) {
    const outcome = await runCheck({ store, env: options.env, stored, name, session, org, pidFile, onCheck });
    if (!outcome) return; // aborted: cancelled, or the daemon stops (it runs them again after its restart)
    outcomes.push(outcome);
    if (outcome.exitCode !== 0 || outcome.timedOut || outcome.signal) {
      end = { passed: false, failed: outcome, maxFailures: org.aof.daemon.maxCheckFailures };
      break;
    }
  }
  if (isClosed()) return;
  end ??= { passed: true, checks: outcomes, durationMs: outcomes.reduce((sum, o) => sum + o.durationMs, 0) };
  const flow = stored.task.routing.workflow ? await toFlow(store.paths.root, stored.task.routing.workflow, org) : null;
  const status = await finishChecks(store, { taskId: id, sessionId: session }, { end, flow });
  await options.onCommitted?.([id]);
  if (status)
    log(
      end.passed ? `checks of ${id} passed: now ${status}` : `check ${end.failed.name} of ${id} failed: now ${status}`,
    );
}

async function toFlow(root: string, name: string, org: OrgChart | null): Promise<GateFlow> {
  const workflow = await loadWorkflow(root, name);
  if (!org) return workflow;
  return {
    ...workflow,
    holders: {
      agents: org.agents.map((a) => a.id),
      roles: Object.fromEntries(Object.entries(org.roles).map(([role, def]) => [role, def.agents])),
    },
  };
}

/**
 * How long the daemon's lease holds a task while its checks run: each check's timeout and end, and a minute to commit
 * the result.
 */
function toChecksLeaseMs(checks: readonly string[], org: OrgChart): number {
  return checks.reduce((sum, name) => sum + (org.aof.checks[name]?.timeoutMs ?? 0) + CHECK_END_MS, 60_000);
}
