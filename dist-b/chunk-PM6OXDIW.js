import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  createFileCache
} from "./chunk-6VNVH7IV.js";
import {
  routeTask
} from "./chunk-Q6YWZLEM.js";
import {
  forEachLimit
} from "./chunk-FWKO7PZW.js";
import {
  findGate,
  firstGate,
  loadWorkflow
} from "./chunk-EUW644CT.js";
import {
  toPriorityRank
} from "./chunk-6RIWMO4X.js";
import {
  compareText
} from "./chunk-RG3YKIXV.js";
import {
  toDaemonSettings,
  toWorkflowFile
} from "./chunk-7MGHIX6Y.js";
import {
  isSafeId
} from "./chunk-PTPZOUXC.js";

// dist/adapters/command.js
import { spawn } from "node:child_process";
import { openSync, closeSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

// dist/core/spawn.js
function toSessionKey(agent, taskId) {
  return `agent:${agent}:svc-${taskId}`;
}
var SpawnError = class extends Error {
  reason;
  constructor(reason, message, options) {
    super(message, options);
    this.name = "SpawnError";
    this.reason = reason;
  }
};
function toFailureReason(err) {
  return err instanceof SpawnError ? err.reason : "spawn_failed";
}

// dist/adapters/command.js
function createCommandAdapter(options) {
  const running = /* @__PURE__ */ new Set();
  return {
    kind: "command",
    children: () => running.size,
    /** Kills the running agent processes. The daemon never calls it: leases outlive a restart. */
    stop() {
      for (const child of running)
        child.kill("SIGTERM");
    },
    async spawn(request) {
      const org = await options.loadOrg();
      const argv = org?.agents.find((agent) => agent.id === request.agent)?.command;
      if (!argv?.length)
        throw new SpawnError("agent_unavailable", `agent ${request.agent} has no command in the org chart`);
      const env = { ...options.baseEnv, ...options.extraEnv, ...org?.agents.find((a) => a.id === request.agent)?.env, ...toTaskEnv(options, request) };
      const child = await start(argv, env, options);
      running.add(child);
      child.stdin?.end(request.prompt);
      child.stdin?.on("error", () => void 0);
      const ended = new Promise((resolve) => {
        child.on("exit", (code, signal) => {
          running.delete(child);
          resolve(code === 0 ? { ok: true } : { ok: false, reason: "ended_without_completion", error: signal ? `killed by ${signal}` : `exit code ${code}` });
        });
      });
      return { ended };
    }
  };
}
function toTaskEnv(options, request) {
  return {
    SVC_HOME: options.root,
    SVC_SOCKET: options.socketPath,
    SVC_TASK_ID: request.taskId,
    SVC_TASK_TITLE: request.task.title,
    SVC_TASK_BRIEF: request.task.body,
    SVC_SESSION_ID: request.sessionId,
    SVC_AGENT: request.agent,
    SVC_TASK_GATE: request.task.gate?.current ?? ""
  };
}
function start(argv, env, options) {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = openSync(options.logFile, "a");
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: options.root, env, stdio: ["pipe", log, log] });
    child.once("spawn", () => {
      closeSync(log);
      resolve(child);
    });
    child.once("error", (err) => {
      closeSync(log);
      reject(new SpawnError(err.code === "ENOENT" || err.code === "EACCES" ? "agent_unavailable" : "spawn_failed", `cannot run ${argv[0]}: ${err.message}`, { cause: err }));
    });
  });
}

// dist/adapters/standalone.js
function createStandaloneAdapter(options) {
  return {
    kind: "standalone",
    async spawn(request) {
      const base = options.gatewayUrl();
      if (!base)
        throw new SpawnError("no_gateway", "aof.daemon.gatewayUrl is not set");
      const body = JSON.parse(await post(base, request, options));
      assertAccepted(body);
      return {};
    }
  };
}
async function post(base, request, options) {
  const token = options.token();
  let response;
  try {
    response = await fetch(new URL("/tools/invoke", base), {
      method: "POST",
      headers: { "content-type": "application/json", ...token ? { authorization: `Bearer ${token}` } : {} },
      body: JSON.stringify({ tool: "sessions_spawn", args: { agentId: request.agent, task: request.prompt, label: request.taskId } }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 3e4)
    });
  } catch (err) {
    throw new SpawnError("gateway_unreachable", `gateway ${base} did not answer: ${err.message}`, { cause: err });
  }
  const text = await response.text();
  if (!response.ok)
    throw new SpawnError(toReason(text, response.status === 401 || response.status === 403 ? "gateway_unauthorized" : "gateway_error"), `gateway answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  return text || "{}";
}
function assertAccepted(body) {
  const reply = body ?? {};
  const details = reply.result?.details;
  if (reply.ok === false)
    throw new SpawnError(toReason(JSON.stringify(reply.error ?? ""), "gateway_error"), `sessions_spawn failed: ${JSON.stringify(reply.error ?? reply)}`);
  if (details?.status === "forbidden" || details?.status === "error") {
    const message = JSON.stringify(details.error ?? details);
    throw new SpawnError(toReason(message, details.status === "forbidden" ? "forbidden" : "gateway_error"), `sessions_spawn ${details.status}: ${message}`);
  }
}
function toReason(text, fallback) {
  return /agent not found/i.test(text) ? "agent_unavailable" : fallback;
}

// dist/engine/plan.js
var MAX_DISPATCH_FAILURES = 3;
function plan(snapshot, ctx) {
  const actions = [];
  const load = /* @__PURE__ */ new Map();
  let running = 0;
  for (const task of snapshot.inProgress) {
    if (task.lease && Date.parse(task.lease.expiresAt) <= ctx.now.getTime()) {
      actions.push({ kind: "expire", taskId: task.id, agent: task.lease.agent, sessionId: task.lease.sessionId, expiredAt: task.lease.expiresAt });
      continue;
    }
    running++;
    const agent = task.lease?.agent;
    if (agent)
      load.set(agent, (load.get(agent) ?? 0) + 1);
  }
  for (const task of [...snapshot.ready].sort(byDispatchOrder)) {
    const action = planReady(task, snapshot, ctx, load, running);
    actions.push(action);
    if (action.kind !== "dispatch")
      continue;
    running++;
    load.set(action.agent, (load.get(action.agent) ?? 0) + 1);
  }
  return actions;
}
function byDispatchOrder(a, b) {
  return toPriorityRank(b.priority) - toPriorityRank(a.priority) || compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id);
}
function planReady(task, snapshot, ctx, load, running) {
  const hold = (reason, detail) => ({ kind: "hold", taskId: task.id, reason, detail });
  if ((task.dispatchFailures ?? 0) >= MAX_DISPATCH_FAILURES)
    return { kind: "deadletter", taskId: task.id, failures: task.dispatchFailures ?? 0 };
  if (ctx.orgProblem)
    return hold("org-chart", ctx.orgProblem);
  const waiting = task.dependsOn.filter((id) => snapshot.statusOf(id) !== "done");
  if (waiting.length)
    return hold("dependencies", `waits on ${waiting.join(", ")}`);
  const route = routeTask({ routing: task.routing, gateRole: task.gateRole }, ctx.org, load);
  if ("none" in route)
    return hold("no-route", route.none);
  const agent = ctx.org?.agents.find((a) => a.id === route.agent);
  const limit = agent?.maxConcurrent ?? 1;
  if ((load.get(route.agent) ?? 0) >= limit)
    return hold("agent-busy", `agent ${route.agent} has ${limit} of ${limit} tasks in progress`);
  if (running >= ctx.maxConcurrentDispatches)
    return hold("concurrency", `${running} of ${ctx.maxConcurrentDispatches} dispatches in progress`);
  if (agent?.command)
    return { kind: "dispatch", taskId: task.id, agent: route.agent, adapter: "command" };
  if (ctx.pluginAttached)
    return { kind: "dispatch", taskId: task.id, agent: route.agent, adapter: "plugin" };
  if (ctx.mode === "booting")
    return hold("booting", "waiting for a gateway plugin to attach during the boot window");
  if (ctx.mode === "plugin")
    return hold("no-plugin-attached", "plugin-expected mode and no plugin holds /v1/spawns/wait");
  if (!ctx.gatewayConfigured)
    return hold("no-gateway", `agent ${route.agent} has no command and aof.daemon.gatewayUrl is not set`);
  return { kind: "dispatch", taskId: task.id, agent: route.agent, adapter: "standalone" };
}

// dist/engine/dispatch.js
var ACTOR = "scheduler";
async function leaseTask(store, taskId, agent, adapter, ttlMs) {
  const sessionId = store.newSessionId();
  const result = await store.commit(taskId, (current) => {
    if (current.status !== "ready" || current.task.status !== "ready")
      return null;
    const expiresAt = new Date(store.clock().getTime() + ttlMs).toISOString();
    return {
      task: { ...current.task, lease: { agent, expiresAt, sessionId } },
      body: current.body,
      status: "in-progress",
      cause: "dispatch",
      reason: `dispatched to ${agent}`,
      events: [{ type: "task.dispatched", taskId, actor: ACTOR, payload: { agent, adapter, sessionId } }]
    };
  }, ACTOR);
  return result.changed ? { sessionId, result } : null;
}
async function recordFailure(store, taskId, sessionId, reason, agent) {
  let failures = null;
  await store.commit(taskId, (current) => {
    if (current.status !== "in-progress" || current.task.lease?.sessionId !== sessionId)
      return null;
    failures = Number(current.task.metadata.dispatchFailures ?? 0) + 1;
    const metadata = { ...current.task.metadata, dispatchFailures: failures, lastFailureReason: reason };
    return {
      task: { ...current.task, metadata },
      body: current.body,
      status: "ready",
      reason: `dispatch failed: ${reason}`,
      events: [{ type: "dispatch.failed", taskId, actor: ACTOR, payload: { agent, reason, failureCount: failures, sessionId } }]
    };
  }, ACTOR);
  return failures;
}
async function deadletterTask(store, taskId) {
  let out = null;
  await store.commit(taskId, (current) => {
    const failureCount = Number(current.task.metadata.dispatchFailures ?? 0);
    if (current.status !== "ready" || failureCount < MAX_DISPATCH_FAILURES)
      return null;
    const lastFailureReason = String(current.task.metadata.lastFailureReason ?? "unknown");
    out = { task: current.task, failureCount, lastFailureReason };
    return {
      task: current.task,
      body: current.body,
      status: "deadletter",
      cause: "deadletter",
      reason: "max_dispatch_failures",
      events: [{ type: "task.deadletter", taskId, actor: ACTOR, payload: { reason: "max_dispatch_failures", failureCount, lastFailureReason } }]
    };
  }, ACTOR);
  return out;
}
async function expireLease(store, taskId, sessionId) {
  const result = await store.commit(taskId, (current) => {
    const lease = current.task.lease;
    if (current.status !== "in-progress" || !lease || lease.sessionId !== sessionId)
      return null;
    if (Date.parse(lease.expiresAt) > store.clock().getTime())
      return null;
    return {
      task: current.task,
      body: current.body,
      status: "ready",
      reason: "lease expired",
      events: [{ type: "lease.expired", taskId, actor: ACTOR, payload: { agent: lease.agent, sessionId, expiredAt: lease.expiresAt } }]
    };
  }, ACTOR);
  return result.transitioned;
}
function formatDeadletterAlert(dead, agent) {
  const { task } = dead;
  return [
    `[AOF] DEADLETTER: ${task.id} "${task.title}"`,
    `[AOF] DEADLETTER:   failures: ${dead.failureCount}, last reason: ${dead.lastFailureReason}, agent: ${agent ?? task.routing.agent ?? "unrouted"}`,
    `[AOF] DEADLETTER:   action: fix the cause, then run \`svc task resurrect ${task.id}\``
  ].join("\n");
}

// dist/engine/run.js
import { mkdir, unlink, writeFile } from "node:fs/promises";

// dist/engine/prompt.js
function toPrompt(task, body, sessionId, gateRole) {
  const gated = task.gate ? `
Workflow: ${task.gate.workflow}, current gate: ${task.gate.current}${gateRole ? ` (role ${gateRole})` : ""}.` : "";
  const outcome = task.gate ? ', outcome: "complete" | "needs_review" | "blocked" (with blockers for the last two)' : "";
  return [
    `You are assigned task ${task.id}: ${task.title}`,
    `Priority: ${task.priority}.${gated}`,
    "",
    body.trim() || "(no brief)",
    "",
    "When you are done, call:",
    `  svc_task_complete({ taskId: "${task.id}", sessionId: "${sessionId}"${outcome}, summary: "<what you did>" })`,
    "While you work, renew your lease at least every few minutes with:",
    `  svc_task_update({ taskId: "${task.id}", sessionId: "${sessionId}" })`,
    "If you cannot proceed, call:",
    `  svc_task_block({ taskId: "${task.id}", sessionId: "${sessionId}", reason: "<what you wait for>" })`
  ].join("\n");
}

// dist/engine/run.js
async function runDispatch(ctx, action) {
  const leased = await leaseTask(ctx.store, action.taskId, action.agent, action.adapter, ctx.ttlMs);
  if (!leased)
    return false;
  await ctx.onCommitted?.([action.taskId]);
  const marker = `${ctx.store.paths.spawns}/${action.taskId}@${leased.sessionId}`;
  await writeFile(marker, "").catch(async (err) => {
    if (err.code !== "ENOENT")
      throw err;
    await mkdir(ctx.store.paths.spawns, { recursive: true });
    await writeFile(marker, "");
  });
  const { task, body } = leased.result.after;
  const request = {
    id: leased.sessionId,
    taskId: task.id,
    agent: action.agent,
    sessionId: leased.sessionId,
    prompt: toPrompt(task, body, leased.sessionId),
    task: { title: task.title, priority: task.priority, routing: task.routing, gate: task.gate, body }
  };
  const adapter = ctx.adapters[action.adapter];
  try {
    if (!adapter)
      throw Object.assign(new Error(`no ${action.adapter} adapter is available`), { reason: "adapter_unavailable" });
    const run = await adapter.spawn(request);
    ctx.log(`dispatched ${task.id} to ${action.agent} via ${action.adapter} (session ${leased.sessionId})`);
    if (run.ended) {
      const handled = run.ended.then((end) => onEnded(ctx, request, end));
      ctx.track?.(handled);
    }
    return true;
  } catch (err) {
    const reason = err.reason ?? toFailureReason(err);
    ctx.log(`dispatch of ${task.id} to ${action.agent} via ${action.adapter} failed: ${reason}: ${err instanceof Error ? err.message : String(err)}`);
    await fail(ctx, request, reason);
    return false;
  } finally {
    await unlink(marker).catch(() => void 0);
  }
}
async function onEnded(ctx, request, end) {
  const reason = end.ok ? "ended_without_completion" : end.reason ?? "run_failed";
  try {
    await fail(ctx, request, reason);
  } catch (err) {
    ctx.log(`checking the end of ${request.taskId} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  ctx.schedule();
}
async function fail(ctx, request, reason) {
  const failures = await recordFailure(ctx.store, request.taskId, request.sessionId, reason, request.agent);
  if (failures === null)
    return;
  await ctx.onCommitted?.([request.taskId]);
  ctx.log(`attempt ${failures} of ${request.taskId} by ${request.agent} failed: ${reason}`);
  const dead = await deadletterTask(ctx.store, request.taskId);
  if (dead) {
    ctx.alert(formatDeadletterAlert(dead, request.agent));
    await ctx.onCommitted?.([request.taskId]);
  }
  ctx.schedule();
}

// dist/engine/scheduler.js
var APPLY_CONCURRENCY = 16;
function startScheduler(options) {
  const held = /* @__PURE__ */ new Map();
  const inflight = /* @__PURE__ */ new Set();
  const runs = /* @__PURE__ */ new Set();
  let current = null;
  let again = false;
  let closed = false;
  let lastTickAt = null;
  async function planNow() {
    const org = await options.loadOrg();
    const settings = toDaemonSettings(org);
    const now = options.store.clock();
    const snapshot = await options.source.snapshot();
    const actions = plan(snapshot, {
      org,
      now,
      maxConcurrentDispatches: settings.maxConcurrentDispatches,
      mode: options.mode(),
      pluginAttached: options.pluginAttached(),
      gatewayConfigured: Boolean(settings.gatewayUrl),
      orgProblem: options.orgProblem?.() ?? null
    });
    return { org, settings, now, snapshot, actions };
  }
  async function tick() {
    const { org, settings, now, snapshot, actions } = await planNow();
    lastTickAt = now.toISOString();
    const dispatched = [];
    options.trace?.(`tick: ${snapshot.ready.length} ready, ${snapshot.inProgress.length} in progress -> ${summarizeActions(actions)}`);
    if (options.dryRun?.()) {
      for (const action of actions)
        if (action.kind !== "hold")
          options.log(`dry run: would ${action.kind} ${action.taskId}${action.kind === "dispatch" ? ` to ${action.agent} (${action.adapter})` : ""}`);
      return { actions, dispatched };
    }
    await forEachLimit(actions, APPLY_CONCURRENCY, (action) => apply(action, settings.defaultLeaseTtlMs, org, dispatched));
    return { actions, dispatched };
  }
  async function apply(action, ttlMs, org, dispatched) {
    try {
      if (action.kind === "expire") {
        if (await expireLease(options.store, action.taskId, action.sessionId)) {
          options.log(`lease of ${action.taskId} (agent ${action.agent}, session ${action.sessionId}) expired at ${action.expiredAt}: back to ready`);
          await options.onCommitted?.([action.taskId]);
          schedule();
        }
      } else if (action.kind === "deadletter") {
        const dead = await deadletterTask(options.store, action.taskId);
        if (dead)
          options.alert(formatDeadletterAlert(dead, void 0));
        await options.onCommitted?.([action.taskId]);
      } else if (action.kind === "hold") {
        logHold(action);
      } else {
        const run = runDispatch({ ...options, org, ttlMs, schedule, track: (ended) => track(ended, runs) }, action);
        track(run);
        if (await run)
          dispatched.push(action.taskId);
      }
    } catch (err) {
      options.log(`${action.kind} of ${action.taskId} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  function logHold(action) {
    const key = `${action.taskId}:${action.reason}`;
    const now = options.store.clock().getTime();
    if (action.reason === "concurrency" || action.reason === "agent-busy" || action.reason === "dependencies")
      return;
    if ((held.get(key) ?? 0) > now)
      return;
    held.set(key, now + (options.holdLogIntervalMs ?? 6e4));
    options.log(`warning: ${action.taskId} held in ready, reason ${action.reason}: ${action.detail}`);
  }
  function track(promise, into = inflight) {
    into.add(promise);
    void promise.catch(() => void 0).finally(() => into.delete(promise));
  }
  function schedule() {
    if (closed)
      return;
    if (current) {
      again = true;
      return;
    }
    current = (async () => {
      do {
        again = false;
        await tick().catch((err) => options.log(`tick failed: ${err instanceof Error ? err.message : String(err)}`));
      } while (again && !closed);
    })().finally(() => {
      current = null;
    });
  }
  return {
    schedule,
    tick,
    preview: async () => (await planNow()).actions,
    async idle() {
      while (current || inflight.size)
        await Promise.allSettled([current, ...inflight]);
    },
    async drain() {
      while (current || inflight.size || runs.size)
        await Promise.allSettled([current, ...inflight, ...runs]);
    },
    stats: () => ({ lastTickAt, activeRuns: runs.size }),
    async close() {
      closed = true;
      await current;
    }
  };
}
function summarizeActions(actions) {
  const counts = /* @__PURE__ */ new Map();
  for (const action of actions)
    counts.set(action.kind, (counts.get(action.kind) ?? 0) + 1);
  return counts.size ? [...counts].map(([kind, n]) => `${n} ${kind}`).join(", ") : "nothing to do";
}

// dist/engine/gates.js
function createGateRoleResolver(root, log = () => void 0) {
  const flows = /* @__PURE__ */ new Map();
  return async (task) => {
    const name = task.gate?.workflow ?? task.routing.workflow;
    if (!name || !isSafeId(name))
      return void 0;
    let flow = flows.get(name);
    if (!flow) {
      flow = createFileCache(toWorkflowFile(root, name), () => loadWorkflow(root, name).catch((err) => {
        log(`warning: workflow ${name} of ${task.id} cannot be loaded: ${err instanceof Error ? err.message : String(err)}`);
        return null;
      }));
      flows.set(name, flow);
    }
    const workflow = await flow.get();
    if (!workflow)
      return void 0;
    const gate = task.gate ? findGate(workflow, task.gate.current) : firstGate(workflow);
    return (gate ?? firstGate(workflow)).role;
  };
}

export {
  toSessionKey,
  SpawnError,
  createCommandAdapter,
  createStandaloneAdapter,
  createGateRoleResolver,
  startScheduler
};
