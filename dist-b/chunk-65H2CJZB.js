import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  assertTaskText
} from "./chunk-RQHJ2EHB.js";
import {
  assertStatus
} from "./chunk-KDLUVCXT.js";
import {
  SvcError
} from "./chunk-3TDHIPSR.js";

// dist/store/deps.js
async function addDependency(store, arg, blockerArg, actor) {
  const taskId = await store.resolve(arg);
  const blockerId = await store.resolve(blockerArg).catch((err) => {
    if (err instanceof SvcError && err.code === "not_found") {
      throw new SvcError("not_found", `Blocker task ${JSON.stringify(blockerArg)} does not exist.`, "Pass the id of an existing task as blockerId.");
    }
    throw err;
  });
  await assertNoCycle(store, taskId, blockerId);
  const result = await store.commit(taskId, (current) => {
    if (current.task.dependsOn.includes(blockerId))
      return null;
    const dependsOn = [...current.task.dependsOn, blockerId];
    return {
      task: { ...current.task, dependsOn },
      body: current.body,
      status: current.status,
      events: [{ type: "task.updated", taskId, actor, payload: { fields: ["dependsOn"], added: blockerId } }]
    };
  }, actor);
  return { taskId, blockerId, dependsOn: result.after.task.dependsOn, changed: result.changed };
}
async function removeDependency(store, arg, blockerArg, actor) {
  const taskId = await store.resolve(arg);
  const current = await store.get(taskId);
  const blockerId = current.task.dependsOn.includes(blockerArg) ? blockerArg : await store.resolve(blockerArg).catch((err) => {
    if (err instanceof SvcError && err.code === "not_found")
      return blockerArg;
    throw err;
  });
  const result = await store.commit(taskId, (cur) => {
    if (!cur.task.dependsOn.includes(blockerId))
      return null;
    const dependsOn = cur.task.dependsOn.filter((id) => id !== blockerId);
    return {
      task: { ...cur.task, dependsOn },
      body: cur.body,
      status: cur.status,
      events: [{ type: "task.updated", taskId, actor, payload: { fields: ["dependsOn"], removed: blockerId } }]
    };
  }, actor);
  return { taskId, blockerId, dependsOn: result.after.task.dependsOn, changed: result.changed };
}
async function assertTasksExist(store, ids) {
  const resolved = [];
  for (const id of ids) {
    try {
      resolved.push(await store.resolve(id));
    } catch (err) {
      if (err instanceof SvcError && err.code === "not_found") {
        throw new SvcError("not_found", `dependsOn names ${JSON.stringify(id)}, which is not a task.`, "Create the blocker first, or pass ids of existing tasks.");
      }
      throw err;
    }
  }
  return resolved;
}
async function assertNoCycle(store, taskId, blockerId) {
  const seen = /* @__PURE__ */ new Set();
  const stack = [[blockerId]];
  while (stack.length) {
    const path = stack.pop();
    const id = path[path.length - 1];
    if (id === taskId) {
      throw new SvcError("dependency_cycle", `Adding ${blockerId} as a blocker of ${taskId} makes a cycle: ${[taskId, ...path].join(" -> ")}.`, "Remove one of the dependencies in the cycle first.");
    }
    if (seen.has(id))
      continue;
    seen.add(id);
    const deps = await store.get(id).then((t) => t.task.dependsOn, () => []);
    for (const dep of deps)
      stack.push([...path, dep]);
  }
}

// dist/store/lease.js
var CLI_LEASE_TTL_MS = 10 * 6e4;
function isLeaseLive(task, now) {
  return !!task.lease && Date.parse(task.lease.expiresAt) > now.getTime();
}
function isLeaseExpired(task, now) {
  return !!task.lease && Date.parse(task.lease.expiresAt) <= now.getTime();
}
function isLeaseHolder(lease, caller) {
  return caller.sessionId !== void 0 ? caller.sessionId === lease.sessionId : caller.actor === lease.agent;
}
function assertLeaseAllows(current, now, caller) {
  assertSession(current, caller.sessionId);
  const { task } = current;
  if (!isLeaseLive(task, now) || isLeaseHolder(task.lease, caller))
    return;
  const { agent, sessionId, expiresAt } = task.lease;
  const minutes = Math.max(1, Math.ceil((Date.parse(expiresAt) - now.getTime()) / 6e4));
  const retry = caller.retry?.(task.id, sessionId) ?? `pass sessionId "${sessionId}"`;
  throw new SvcError("lease_held", `Task has active lease: ${task.id} is held by agent ${agent} (session ${sessionId}) until ${expiresAt} (${minutes} min from now); ${caller.actor} does not hold it.`, `To act on it as its holder: ${retry}. Otherwise wait until the lease ends or expires.`);
}
function assertSession(current, sessionId) {
  if (sessionId === void 0)
    return;
  const lease = current.task.lease;
  if (lease && lease.sessionId === sessionId && current.status === "in-progress")
    return;
  const now = lease ? `the current session is ${lease.sessionId} (agent ${lease.agent})` : `it holds no lease (status ${current.status})`;
  throw new SvcError("stale_session", `Session ${sessionId} no longer holds ${current.task.id}: ${now}.`, "Stop working on this task; its lease ended and it may have been given to another agent.");
}
function toRecoveryChange(current, reason) {
  const lease = current.task.lease;
  const task = { ...current.task };
  delete task.lease;
  return {
    task,
    body: current.body,
    status: "ready",
    reason,
    events: [{
      type: "recovery_action",
      taskId: task.id,
      actor: "system",
      payload: { action: "lease_expired", details: { leaseExpiredAt: lease.expiresAt, transitionedTo: "ready" } }
    }]
  };
}
async function commitAsOperator(store, arg, options, build) {
  let recovered;
  const result = await store.commit(arg, (current) => {
    const now = store.clock();
    assertLeaseAllows(current, now, options);
    if (options.recover && current.status === "in-progress" && isLeaseExpired(current.task, now)) {
      recovered = { id: current.task.id, expiredAt: current.task.lease.expiresAt };
      return toRecoveryChange(current, "lease expired (recover-on-failure)");
    }
    return build(current);
  }, options.actor);
  if (recovered) {
    throw new SvcError("lease_held", `Task has active lease: ${recovered.id} held a lease that expired at ${recovered.expiredAt}; it was reclaimed and moved to ready.`, "Retry the command now.");
  }
  return result;
}

// dist/store/ops.js
async function setStatus(store, arg, to, options) {
  assertStatus(to);
  return store.commit(arg, (current) => {
    assertLeaseAllows(current, store.clock(), options);
    return toStatusChange(current, to, options.reason, options.cause);
  }, options.actor);
}
function toStatusChange(current, to, reason, cause) {
  if (current.status === to && current.task.status === to)
    return null;
  return { task: current.task, body: current.body, status: to, ...reason ? { reason } : {}, ...cause ? { cause } : {} };
}
async function promoteTask(store, arg, options) {
  return store.commit(arg, (current) => {
    if (current.status !== "backlog") {
      throw new SvcError("invalid_transition", `${current.task.id} is in ${current.status}, not backlog: only backlog tasks are promoted.`, `Use \`svc task status ${current.task.id} <status>\` to move it.`);
    }
    return toStatusChange(current, "ready", options.reason);
  }, options.actor);
}
async function resurrectTask(store, arg, options) {
  return store.commit(arg, (current) => {
    if (current.status !== "deadletter") {
      throw new SvcError("invalid_transition", `${current.task.id} is in ${current.status}, not deadletter: only deadlettered tasks are resurrected.`, "List them with `svc task list --status deadletter`.");
    }
    const metadata = { ...current.task.metadata };
    const previousFailures = Number(metadata.dispatchFailures ?? 0);
    delete metadata.dispatchFailures;
    delete metadata.lastFailureReason;
    return {
      task: { ...current.task, metadata },
      body: current.body,
      status: "ready",
      reason: options.reason ?? "resurrected",
      events: [{ type: "task.resurrected", taskId: current.task.id, actor: options.actor, payload: { from: "deadletter", to: "ready", previousFailures } }]
    };
  }, options.actor);
}
async function cancelTask(store, arg, options) {
  return store.commit(arg, (current) => {
    if (current.status === "cancelled")
      return null;
    assertLeaseAllows(current, store.clock(), options);
    const metadata = options.reason ? { ...current.task.metadata, cancelReason: options.reason } : current.task.metadata;
    return {
      task: { ...current.task, metadata },
      body: current.body,
      status: "cancelled",
      ...options.reason ? { reason: options.reason } : {},
      events: [{ type: "task.cancelled", taskId: current.task.id, actor: options.actor, payload: options.reason ? { reason: options.reason } : {} }]
    };
  }, options.actor);
}
async function blockTask(store, arg, options) {
  if (!options.reason?.trim())
    throw new SvcError("validation_error", "Blocking needs a reason.", 'Say what the task waits for, e.g. reason: "waiting for API keys".');
  return store.commit(arg, (current) => {
    assertLeaseAllows(current, store.clock(), options);
    return {
      task: { ...current.task, metadata: { ...current.task.metadata, blockReason: options.reason } },
      body: current.body,
      status: "blocked",
      reason: options.reason,
      events: [{ type: "task.blocked", taskId: current.task.id, actor: options.actor, payload: { reason: options.reason } }]
    };
  }, options.actor);
}
async function unblockTask(store, arg, options) {
  return store.commit(arg, (current) => {
    if (current.status !== "blocked") {
      throw new SvcError("invalid_transition", `${current.task.id} is in ${current.status}, not blocked: there is nothing to unblock.`, "Only blocked tasks can be unblocked.");
    }
    const metadata = { ...current.task.metadata };
    delete metadata.blockReason;
    return {
      task: { ...current.task, metadata },
      body: current.body,
      status: "ready",
      reason: options.reason ?? "unblocked",
      events: [{ type: "task.unblocked", taskId: current.task.id, actor: options.actor, payload: {} }]
    };
  }, options.actor);
}
async function editTask(store, arg, input, options) {
  assertTaskText(input.title, input.description);
  let updatedFields = [];
  const result = await store.commit(arg, (current) => {
    const task = { ...current.task };
    updatedFields = [];
    if (input.title !== void 0 && input.title.trim() !== task.title)
      task.title = input.title.trim(), updatedFields.push("title");
    if (input.priority !== void 0 && input.priority !== task.priority)
      task.priority = input.priority, updatedFields.push("priority");
    if (input.routing) {
      const routing = { ...task.routing, ...withoutUndefined(input.routing) };
      if (JSON.stringify(routing) !== JSON.stringify(task.routing))
        task.routing = routing, updatedFields.push("routing");
    }
    const body = input.description !== void 0 && input.description !== current.body ? input.description : current.body;
    if (body !== current.body)
      updatedFields.push("description");
    if (!updatedFields.length)
      return null;
    return { task, body, status: current.status, events: [{ type: "task.updated", taskId: task.id, actor: options.actor, payload: { fields: updatedFields } }] };
  }, options.actor);
  return { result, updatedFields };
}
function withoutUndefined(value) {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== void 0));
}

// dist/store/work.js
async function updateTask(store, arg, input) {
  if (input.status !== void 0)
    assertStatus(input.status);
  assertTaskText(void 0, input.body);
  const result = await store.commit(arg, (current) => toUpdateChange(current, input, store.clock()), input.actor);
  return toUpdateResult(result);
}
async function updateTaskAsOperator(store, arg, input) {
  if (input.status !== void 0)
    assertStatus(input.status);
  assertTaskText(void 0, input.body);
  const result = await commitAsOperator(store, arg, input, (current) => toUpdateChange(current, input, store.clock()));
  return toUpdateResult(result);
}
async function claimTask(store, arg, options) {
  return commitAsOperator(store, arg, options, (current) => {
    if (current.status !== "ready") {
      throw new SvcError("invalid_transition", `${current.task.id} is in ${current.status}: only ready tasks can be claimed.`, current.status === "backlog" ? `Promote it first: svc task promote ${current.task.id}` : "Pick a task from `svc task list --status ready`.");
    }
    const now = store.clock();
    const lease = { agent: options.agent ?? "operator", expiresAt: new Date(now.getTime() + (options.ttlMs ?? CLI_LEASE_TTL_MS)).toISOString(), sessionId: store.newSessionId() };
    return { task: { ...current.task, lease }, body: current.body, status: "in-progress", cause: "claim", reason: `claimed by ${lease.agent}` };
  });
}
async function closeTask(store, arg, options) {
  return commitAsOperator(store, arg, options, (current) => {
    const change = toStatusChange(current, "done", options.reason ?? "closed", "close");
    return change && { ...change, events: [{ type: "task.completed", taskId: current.task.id, actor: options.actor, payload: { via: "close" } }] };
  });
}
function toUpdateChange(current, input, now) {
  assertLeaseAllows(current, now, input);
  const task = { ...current.task };
  const holder = task.lease && isLeaseHolder(task.lease, input);
  let renewed = false;
  if (holder && task.lease && input.leaseTtlMs) {
    const expiresAt = Math.max(Date.parse(task.lease.expiresAt), now.getTime() + input.leaseTtlMs);
    task.lease = { ...task.lease, expiresAt: new Date(expiresAt).toISOString() };
    renewed = expiresAt !== Date.parse(current.task.lease.expiresAt);
  }
  const body = input.body ?? current.body;
  const status = input.status ?? current.status;
  const bodyUpdated = input.body !== void 0 && input.body.trimEnd() !== current.body.trimEnd();
  if (!renewed && !bodyUpdated && status === current.status)
    return null;
  const events = bodyUpdated ? [{ type: "task.updated", taskId: task.id, actor: input.actor, payload: { fields: ["body"] } }] : [];
  const change = { task, body, status, events, touch: bodyUpdated || status !== current.status };
  if (input.reason)
    change.reason = input.reason;
  return change;
}
function toUpdateResult(result) {
  const { task } = result.after;
  return {
    taskId: task.id,
    status: result.after.status,
    updatedAt: task.updatedAt,
    bodyUpdated: result.before.body.trimEnd() !== result.after.body.trimEnd(),
    transitioned: result.transitioned
  };
}

export {
  addDependency,
  removeDependency,
  assertTasksExist,
  assertLeaseAllows,
  setStatus,
  promoteTask,
  resurrectTask,
  cancelTask,
  blockTask,
  unblockTask,
  editTask,
  updateTask,
  updateTaskAsOperator,
  claimTask,
  closeTask
};
