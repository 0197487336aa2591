import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  createCommandAdapter,
  createGateRoleResolver,
  createStandaloneAdapter,
  startScheduler
} from "./chunk-PM6OXDIW.js";
import "./chunk-6VNVH7IV.js";
import "./chunk-Q6YWZLEM.js";
import {
  findPackageRoot
} from "./chunk-CNII3WO7.js";
import "./chunk-FWKO7PZW.js";
import "./chunk-EUW644CT.js";
import {
  toDispatchFailures
} from "./chunk-RQHJ2EHB.js";
import "./chunk-6RIWMO4X.js";
import {
  requestDaemon,
  toDaemonError
} from "./chunk-SBT3SZU2.js";
import "./chunk-RJKZMO5M.js";
import "./chunk-RG3YKIXV.js";
import {
  loadOrg,
  toDaemonSettings
} from "./chunk-7MGHIX6Y.js";
import "./chunk-PTPZOUXC.js";
import "./chunk-KDLUVCXT.js";
import {
  isSvcError
} from "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";

// dist/engine/snapshot.js
function toPlanTask(stored, gateRole) {
  const { task } = stored;
  return {
    id: task.id,
    status: stored.status,
    priority: task.priority,
    createdAt: task.createdAt,
    routing: task.routing,
    dependsOn: task.dependsOn,
    lease: task.lease,
    gateRole,
    dispatchFailures: toDispatchFailures(task.metadata)
  };
}
function toSnapshot(tasks, statuses) {
  return {
    ready: tasks.filter((t) => t.status === "ready"),
    inProgress: tasks.filter((t) => t.status === "in-progress"),
    statusOf: (id) => statuses.get(id)
  };
}
function createListingSource(store) {
  return {
    async snapshot() {
      const { tasks } = await store.list();
      const roleOf = createGateRoleResolver(store.paths.root);
      const planned = await Promise.all(tasks.map(async (t) => toPlanTask(t, t.status === "ready" ? await roleOf(t.task) : void 0)));
      return toSnapshot(planned, new Map(tasks.map((t) => [t.task.id, t.status])));
    }
  };
}

// dist/cli/paths.js
import { join } from "node:path";
var SVC_BIN = join(findPackageRoot(), "bin", "svc.js");

// dist/cli/scheduler.js
function registerScheduler(cli, ctx) {
  cli.command("run", "Dry run: print what the scheduler would do now, changing nothing; --active dispatches").option("--active", "Dispatch for real (one tick)").option("--json", "Print the actions as JSON").action(async (opts) => {
    const store = ctx.store();
    const viaDaemon = await askDaemon(store, Boolean(opts.active));
    const actions = viaDaemon ?? (opts.active ? await runActive(ctx, store) : await planOnce(ctx, store));
    if (opts.json)
      return ctx.json({ active: Boolean(opts.active), daemon: viaDaemon !== null, actions });
    actions.forEach((action) => ctx.print(formatAction(action)));
    ctx.print(summarize(actions, Boolean(opts.active)) + (viaDaemon ? " (by the running daemon)" : ""));
  });
}
async function askDaemon(store, active) {
  let reply;
  try {
    reply = active ? await requestDaemon(store.paths.socket, "POST", "/v1/scheduler/tick") : await requestDaemon(store.paths.socket, "GET", "/v1/scheduler/plan");
  } catch (err) {
    if (isSvcError(err, "unavailable"))
      return null;
    throw err;
  }
  if (reply.status !== 200)
    throw toDaemonError(reply.status, reply.body);
  return reply.body.actions;
}
async function planOnce(ctx, store) {
  const scheduler = startScheduler({
    store,
    source: createListingSource(store),
    adapters: {},
    loadOrg: () => loadOrg(ctx.root),
    mode: () => "standalone",
    pluginAttached: () => false,
    log: () => void 0,
    alert: () => void 0
  });
  try {
    return await scheduler.preview();
  } finally {
    await scheduler.close();
  }
}
async function runActive(ctx, store) {
  const root = ctx.root;
  const org = () => loadOrg(root);
  const settings = toDaemonSettings(await org());
  const command = createCommandAdapter({
    root,
    socketPath: store.paths.socket,
    loadOrg: org,
    baseEnv: ctx.io.env,
    logFile: `${store.paths.logs}/agents.log`,
    extraEnv: { SVC_BIN, SVC_NODE: process.execPath }
  });
  const standalone = createStandaloneAdapter({ gatewayUrl: () => settings.gatewayUrl, token: () => ctx.io.env.SVC_GATEWAY_TOKEN, timeoutMs: settings.spawnTimeoutMs });
  const scheduler = startScheduler({
    store,
    source: createListingSource(store),
    adapters: { command, standalone },
    loadOrg: org,
    mode: () => "standalone",
    pluginAttached: () => false,
    log: (line) => ctx.io.stderr(`${line}
`),
    alert: (text) => ctx.io.stderr(`${text}
`)
  });
  const report = await scheduler.tick();
  await scheduler.idle();
  const running = scheduler.stats().activeRuns;
  if (running)
    ctx.io.stderr(`waiting for ${running} agent run${running === 1 ? "" : "s"} to end (the agents' output goes to ${store.paths.logs}/agents.log)
`);
  await scheduler.close();
  await scheduler.drain();
  return report.actions;
}
function formatAction(action) {
  switch (action.kind) {
    case "dispatch":
      return `dispatch    ${action.taskId} -> ${action.agent} (${action.adapter})`;
    case "expire":
      return `expire      ${action.taskId}: lease of ${action.agent} expired at ${action.expiredAt}`;
    case "deadletter":
      return `deadletter  ${action.taskId}: ${action.failures} failed dispatches`;
    case "hold":
      return `hold        ${action.taskId}: ${action.reason}: ${action.detail}`;
  }
}
function summarize(actions, active) {
  const count = (kind) => actions.filter((a) => a.kind === kind).length;
  const parts = `${count("dispatch")} to dispatch, ${count("hold")} held, ${count("expire")} leases expired, ${count("deadletter")} to deadletter`;
  return active ? `tick: ${parts}` : `dry run: ${parts} (nothing changed)`;
}
export {
  registerScheduler
};
