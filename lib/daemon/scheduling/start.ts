import { createAdapterSet } from '../../adapters/assemble.js';
import { describeError } from '../../core/errors.js';
import { createGateRoleResolver } from '../../engine/gates.js';
import { createApprovalAlerts } from '../../engine/alerts/approval.js';
import { startMurmur } from '../../engine/murmur/runner.js';
import { startSpawnRecovery } from '../../engine/recover.js';
import { startScheduler, type SchedulerHandle } from '../../engine/scheduler.js';
import { startOverdue } from '../../engine/alerts/overdue-runner.js';
import { startSla } from '../../engine/alerts/sla-runner.js';
import { startWorkspaceCleanup } from '../../engine/workspaces/cleanup.js';
import { startCheckRunner } from '../../engine/checks/runner.js';
import { toBudgetHold } from '../../engine/budgets/limits.js';
import { startSpendLedger } from './spend.js';
import { readEnvFile } from '../../fs/env-file.js';
import { findEnvValues } from '../../fs/process.js';
import { toDaemonSettings } from '../../org/org-chart.js';
import { startDuties } from './duties.js';
import { createOrgState } from './org-state.js';
import { watchPauses } from './pause-watch.js';
import { createBoot } from './boot-mode.js';
import { toSnapshot } from './plan-view.js';
import { createPluginAdapter } from './plugin-adapter.js';
import { createRunEnder } from './run-ender.js';
import { createRuntimeWiring } from './runtime-wiring.js';
import type { Scheduling, SchedulingOptions } from './scheduling.js';
import { toWatched } from './watched-adapters.js';
import { TOOLS } from '../../tools/index.js';

/** Starts scheduling in the daemon (docs/architecture.md, "Scheduler" and "Adapters"). */
export async function startScheduling(options: SchedulingOptions): Promise<Scheduling> {
  const { store, index, spawns } = options;
  const org = createOrgState({
    root: store.paths.root,
    file: store.paths.orgChart,
    now: store.clock,
    log: options.log,
  });
  const settings = toDaemonSettings(await org.get());
  const spend = await startSpendLedger(options);
  const boot = createBoot({
    windowMs: settings.bootWindowMs,
    pollMs: settings.pollIntervalMs,
    attached: () => spawns.attached().length > 0,
    log: options.log,
  });
  // A worktree is removed, and checks start, only once no run of the task is left (the run that handed it on included).
  const worktrees = startWorkspaceCleanup({
    store,
    log: options.log,
    host: options.owner?.host,
    statusOf: (id) => index.get(id)?.status,
    isRunAlive: (id) => ender.describe(id) !== null,
  });
  const token = () => options.env.SVC_GATEWAY_TOKEN ?? readEnvFile(store.paths.envFile).SVC_GATEWAY_TOKEN;
  const runtime = createRuntimeWiring({
    store,
    org: org.current,
    log: options.log,
    onCommitted: (ids) => index.updateStale(ids),
    budgets: { ledger: spend.ledger, alert: options.alert },
  });
  const { command, standalone } = createAdapterSet({
    paths: store.paths,
    loadOrg: org.get,
    env: options.env,
    settings: org.settings,
    spawnTimeoutMs: settings.spawnTimeoutMs,
    svcTools: TOOLS.map((tool) => tool.name),
    runtimeHooks: runtime.hooks,
    token,
    daemon: {
      onGone: (run) => {
        if (run.adopted) void runtime.settle(command.runs);
        ender.gone(run);
        worktrees.request(run.taskId);
      },
    },
  });
  const roleOf = createGateRoleResolver(store.paths.root, options.log);
  const source = { snapshot: async () => ({ ...(await toSnapshot(index, roleOf)), previousRun: ender.describe }) };
  const plugin = createPluginAdapter(spawns);
  const scheduler: SchedulerHandle = startScheduler({
    store,
    source,
    adapters: toWatched(
      { command, standalone, plugin },
      {
        onHanded: options.onHanded,
        onEnded: (id) => {
          checks.scan();
          worktrees.request(id);
        },
      },
    ),
    loadOrg: org.get,
    mode: boot.mode,
    pluginAttached: () => spawns.attached().length > 0,
    log: options.log,
    alert: options.alert,
    onCommitted: (ids) => index.updateStale(ids),
    dryRun: () => org.settings().dryRun,
    orgProblem: org.problem,
    budgetHold: (chart, now) => toBudgetHold(spend.ledger, { org: chart, now }),
    ...(options.trace ? { trace: options.trace } : {}),
    ...(options.fault ? { fault: options.fault } : {}),
    ...(options.owner ? { owner: options.owner } : {}),
    // a check lease expired, or the task left in-progress
    endRuns: (id, why) => {
      void ender.endUnlessCurrent(id, why);
      checks.cancel(id);
    },
  });
  const checks = startCheckRunner({
    store,
    inProgress: () => index.summaries('in-progress'),
    loadOrg: org.get,
    env: options.env,
    log: options.log,
    host: options.owner?.host,
    isRunAlive: (id) => ender.describe(id) !== null,
    onCommitted: async (ids) => {
      await index.update(ids);
      scheduler.schedule();
    },
  });
  // One run per task (docs/scheduler.md): what ends the runs of each adapter, and the index's view of their tasks.
  const ender = createRunEnder({
    store,
    command,
    stopPluginRuns: plugin.stop,
    pluginRuns: plugin.runsOf,
    stopStandaloneRuns: standalone.stop,
    stopGraceMs: () => org.settings().agentStopGraceMs,
    exitGraceMs: () => org.settings().runExitGraceMs,
    log: options.log,
    schedule: () => {
      scheduler.schedule();
      checks.scan();
    },
    onCommitted: (ids) => index.updateStale(ids),
    taskOf: (id) => {
      const entry = index.get(id);
      return entry && { status: entry.status, sessionId: entry.lease?.sessionId };
    },
  });
  await ender.start();
  await runtime.settle(command.runs);
  const recovery = await startSpawnRecovery({
    store,
    log: options.log,
    running: () => findEnvValues('SVC_SESSION_ID'),
    onRequeued: (ids) => void Promise.resolve(index.update(ids)).then(() => scheduler.schedule()),
  });
  // Murmur runs with every tick request and poll, SLA on every poll (see docs/murmur.md and docs/sla.md).
  // Each team's murmur, the SLA and the OVERDUE alerts have one owner among the daemons sharing the tree
  // (docs/several-hosts.md).
  const duties = startDuties({
    store,
    ...(options.owner ? { self: options.owner } : {}),
    ttlMs: () => org.settings().dutyTtlMs,
    log: options.log,
    onTaken: () => schedule(),
  });
  const murmur = startMurmur({
    store,
    index,
    loadOrg: org.get,
    log: options.log,
    duty: duties,
    onCreated: async (id) => {
      await index.update([id]);
      scheduler.schedule();
    },
  });
  const pauses = watchPauses(store.paths, { log: options.log, onChange: () => scheduler.schedule() });
  const sla = startSla({ store, index, loadOrg: org.get, log: options.log, alert: options.alert, duty: duties });
  const overdue = startOverdue({ store, index, log: options.log, alert: options.alert, duty: duties });
  const approvals = createApprovalAlerts({ entryOf: (id) => index.get(id), alert: options.alert });
  void worktrees.sweep();
  const schedule = () => {
    scheduler.schedule();
    checks.scan();
    overdue.request();
    if (!org.settings().dryRun) void murmur.run();
  };
  let lastPollAt: string | null = null;
  const poll = setInterval(() => {
    lastPollAt = store.clock().toISOString();
    boot.polled();
    ender.sweep();
    void worktrees.sweep();
    schedule();
    void sla.check().catch((err: unknown) => options.log(`SLA check failed: ${describeError(err)}`));
  }, settings.pollIntervalMs);
  boot.onDecided(() => scheduler.schedule());
  // A plugin attaching is an event: tasks held `no-plugin-attached` go now, not at the next poll.
  const offAttach = spawns.onAttach(() => scheduler.schedule());
  schedule();
  return {
    mode: boot.mode,
    stats: () => ({ lastPollAt, lastTickAt: scheduler.stats().lastTickAt }),
    holds: () => scheduler.holds(),
    schedule,
    busy: scheduler.busy,
    observe(change) {
      murmur.observe(change);
      approvals.observe(change);
      if (change.to === 'cancelled') {
        ender.end(change.id, 'it was cancelled', { atOnce: true });
        checks.cancel(change.id);
      }
      if (change.to === 'done' || change.to === 'cancelled') worktrees.request(change.id);
    },
    tick: async () => (await scheduler.tick()).actions,
    onPluginEvent(name, payload) {
      const key = payload.sessionKey;
      if ((name !== 'agent-end' && name !== 'session-end') || typeof key !== 'string') return null;
      return plugin.endSession(key, typeof payload.spawnId === 'string' ? payload.spawnId : undefined) ? key : null;
    },
    handOn: (taskId) => ender.handOn(taskId),
    dryRun: () => scheduler.preview(),
    config: org.report,
    pausedAgents: pauses.current,
    holdCounts: scheduler.holdCounts,
    localRuns: () => command.runs.all(),
    ledger: spend.ledger,
    async close() {
      clearInterval(poll);
      spend.close();
      offAttach();
      pauses.close();
      overdue.close();
      recovery.close();
      ender.close();
      await worktrees.close();
      await checks.close();
      boot.close();
      await murmur.close();
      await duties.close();
      await scheduler.close();
      command.close();
    },
  };
}
