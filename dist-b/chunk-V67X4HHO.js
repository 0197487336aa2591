import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  assertKnownRouting,
  hasRoute
} from "./chunk-Q6YWZLEM.js";
import {
  listNames
} from "./chunk-BHFKD6MH.js";
import {
  addDependency,
  assertLeaseAllows,
  assertTasksExist,
  blockTask,
  cancelTask,
  editTask,
  removeDependency,
  unblockTask,
  updateTask
} from "./chunk-65H2CJZB.js";
import {
  loadWorkflow
} from "./chunk-EUW644CT.js";
import {
  assertTaskText,
  formatIssues
} from "./chunk-RQHJ2EHB.js";
import {
  PRIORITIES,
  toPriorityRank
} from "./chunk-6RIWMO4X.js";
import {
  compareText
} from "./chunk-RG3YKIXV.js";
import {
  loadOrg,
  toDaemonSettings
} from "./chunk-7MGHIX6Y.js";
import {
  external_exports
} from "./chunk-PTPZOUXC.js";
import {
  STATUSES,
  isStatus,
  isTerminal
} from "./chunk-KDLUVCXT.js";
import {
  SvcError,
  isSvcError
} from "./chunk-3TDHIPSR.js";

// dist/tools/registry.js
async function invokeTool(tools, name, params, ctx) {
  if (typeof name !== "string" || !name) {
    throw new SvcError("validation_error", "The envelope has no `tool` name.", 'Send {"tool": "svc_status", "params": {}}.');
  }
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) {
    throw new SvcError("unknown_tool", `Unknown tool ${JSON.stringify(name)}.`, `Known tools: ${tools.map((t) => t.name).join(", ")}.`);
  }
  const parsed = tool.params.safeParse(params ?? {});
  if (!parsed.success) {
    throw new SvcError("validation_error", `${name}: invalid params:
${formatIssues(parsed.error.issues)}`, `See the ${name} parameters in the README's tool reference.`);
  }
  return tool.handler(parsed.data, ctx);
}

// dist/store/complete.js
var OUTCOMES = ["complete", "needs_review", "blocked"];
async function completeTask(store, arg, input, loadFlow) {
  const peek = await store.get(arg);
  const flow = peek.task.routing.workflow ? await loadFlow(peek.task.routing.workflow) : null;
  return store.commit(peek.task.id, (current) => {
    assertOutcome(current, input, flow);
    assertLeaseAllows(current, store.clock(), input);
    if (current.status !== "in-progress") {
      throw new SvcError("invalid_transition", `${current.task.id} is in ${current.status}, not in-progress: only a task being worked on can be completed.`, current.status === "done" ? "It is already done." : "Claim or dispatch it first, or close it with `svc task close`.");
    }
    return flow ? toGateChange(current, input, flow, store.clock()) : toPlainChange(current, input);
  }, input.actor);
}
function assertOutcome(current, input, flow) {
  const id = current.task.id;
  if (flow && !input.outcome) {
    const gate = currentGate(current.task, flow);
    throw new SvcError("outcome_required", `${id} is in a DAG workflow (${flow.name}, current hop: gate \`${gate.id}\`, role \`${gate.role}\`): svc_task_complete needs \`outcome\`. Call svc_task_complete({ taskId: "${id}", outcome: "complete" | "needs_review" | "blocked" }).`, '"complete" advances to the next gate (or done at the last); "needs_review" returns to the first gate and "blocked" holds at this gate, both with `blockers`.');
  }
  if ((input.outcome === "needs_review" || input.outcome === "blocked") && !input.blockers?.length) {
    throw new SvcError("blockers_required", `${id}: outcome \`${input.outcome}\` needs \`blockers\`, the list of what must change.`, `Call svc_task_complete({ taskId: "${id}", outcome: "${input.outcome}", blockers: ["what is wrong or missing"] }).`);
  }
  if (flow && input.callerRole) {
    const gate = currentGate(current.task, flow);
    if (input.callerRole !== gate.role) {
      throw new SvcError("forbidden_role", `${id} is at gate \`${gate.id}\`, which role \`${gate.role}\` completes; the caller declared role \`${input.callerRole}\`.`, `Only an agent in role ${gate.role} can complete this gate.`);
    }
  }
}
function currentGate(task, flow) {
  const id = task.gate?.current ?? flow.gates[0]?.id;
  const gate = flow.gates.find((g) => g.id === id) ?? flow.gates[0];
  if (!gate)
    throw new SvcError("validation_error", `Workflow ${flow.name} has no gates.`, "Add at least one gate to the workflow.");
  return gate;
}
function toPlainChange(current, input) {
  const status = input.outcome === "blocked" ? "blocked" : input.outcome === "needs_review" ? "ready" : "done";
  return withSummary(current, input, status, { ...current.task });
}
function toGateChange(current, input, flow, now) {
  const gate = currentGate(current.task, flow);
  const index = flow.gates.indexOf(gate);
  const entry = { gate: gate.id, outcome: input.outcome, actor: input.actor, at: now.toISOString() };
  if (input.summary)
    entry.summary = input.summary;
  if (input.blockers?.length)
    entry.blockers = input.blockers;
  const history = [...current.task.gate?.history ?? [], entry];
  let next = gate.id;
  let status = "blocked";
  if (input.outcome === "complete") {
    const following = flow.gates[index + 1];
    next = following?.id ?? gate.id;
    status = following ? "ready" : "done";
  } else if (input.outcome === "needs_review") {
    if (gate.canReject === false)
      throw new SvcError("validation_error", `Gate \`${gate.id}\` of ${current.task.id} cannot reject (canReject: false).`, 'Use outcome "complete" or "blocked".');
    next = flow.gates[0].id;
    status = "ready";
  }
  const task = { ...current.task, gate: { workflow: flow.name, current: next, history } };
  const change = withSummary(current, input, status, task);
  change.events.push({ type: "gate.transition", taskId: task.id, actor: input.actor, payload: { workflow: flow.name, from: gate.id, to: status === "done" ? null : next, outcome: input.outcome } });
  return change;
}
function withSummary(current, input, status, task) {
  let body = current.body;
  if (task.metadata.dispatchFailures !== void 0 || task.metadata.lastFailureReason !== void 0) {
    const { dispatchFailures: _failures, lastFailureReason: _reason, ...rest } = task.metadata;
    task.metadata = rest;
  }
  if (input.summary) {
    task.metadata = { ...task.metadata, completionSummary: input.summary };
    body = `${body.trimEnd()}

## Completion summary

${input.summary.trim()}
`;
  }
  if (input.blockers?.length)
    body = `${body.trimEnd()}

## Blockers (${input.outcome})

${input.blockers.map((b) => `- ${b}`).join("\n")}
`;
  const payload = {};
  if (input.outcome)
    payload.outcome = input.outcome;
  if (input.summary)
    payload.summary = input.summary;
  const events = status === "done" ? [{ type: "task.completed", taskId: task.id, actor: input.actor, payload }] : [];
  return { task, body: body.replace(/^\n+/, ""), status, events, reason: input.outcome ?? "complete" };
}

// dist/tools/org.js
async function toOrg(ctx) {
  return ctx.org ? ctx.org() : loadOrg(ctx.store.paths.root);
}
function isRoutable(routing, org) {
  assertKnownRouting(routing, org);
  return org ? hasRoute(routing) : Boolean(routing.agent);
}
async function toLeaseTtlMs(ctx) {
  const org = await toOrg(ctx).catch(() => null);
  return toDaemonSettings(org).heartbeatTtlMs;
}
function toFlowLoader(ctx) {
  return (name) => loadWorkflow(ctx.store.paths.root, name);
}

// dist/tools/params.js
var DEFAULT_ACTOR = "agent";
var ID_PROBLEM = 'must be a task id, a prefix or a sequence such as 007: letters, digits, ".", "_" or "-" (no "/", no "..")';
function idParam(description) {
  return external_exports.string().min(1, { error: "must not be empty", abort: true }).max(128, { error: "must be at most 128 characters", abort: true }).regex(/^(?:[A-Za-z0-9][A-Za-z0-9._-]*|-\d+)$/, { error: ID_PROBLEM, abort: true }).refine((value) => !value.includes(".."), ID_PROBLEM).describe(description);
}
var actorParam = external_exports.string().min(1).max(200).optional().describe('Calling agent id, recorded in events (default "agent").');
var sessionIdParam = external_exports.string().min(1).max(200).optional().describe("The sessionId of your lease, as given in your spawn prompt. A session whose lease ended is refused (stale_session): stop working on the task then.");
var priorityParam = external_exports.enum(PRIORITIES);
var statusParam = external_exports.enum(STATUSES);
function toolParams(shape) {
  const known = Object.keys(shape).join(", ");
  return external_exports.strictObject(shape, {
    error: (iss) => iss.code === "unrecognized_keys" ? `unknown parameter ${iss.keys.map((k) => JSON.stringify(k)).join(", ")} (known: ${known})` : void 0
  });
}
var MAX_FIELD_BYTES = 16 * 1024;
function assertFieldSize(name, value) {
  if (value === void 0)
    return;
  const bytes = Buffer.byteLength(typeof value === "string" ? value : JSON.stringify(value));
  if (bytes <= MAX_FIELD_BYTES)
    return;
  throw new SvcError("too_large", `\`${name}\` has ${bytes} bytes; the limit is ${MAX_FIELD_BYTES}.`, "Keep it short and put long material in the task body or in files it links to.");
}
function toActor(params) {
  return params.actor ?? DEFAULT_ACTOR;
}
function toCaller(params, tool) {
  return {
    actor: toActor(params),
    ...params.sessionId !== void 0 ? { sessionId: params.sessionId } : {},
    retry: (taskId, sessionId) => `${tool}({ taskId: "${taskId}", sessionId: "${sessionId}", ... })`
  };
}
async function notifyCommitted(ctx, ids) {
  await ctx.onCommitted?.(ids);
}

// dist/tools/complete.js
var CompleteParams = toolParams({
  taskId: idParam("The task: full id or unique prefix."),
  summary: external_exports.string().optional().describe("Completion summary / work log entry, appended to the body."),
  outcome: external_exports.enum(OUTCOMES).optional().describe("Required for gated tasks: complete (advance), needs_review (reject to the origin gate) or blocked (hold at this gate)."),
  blockers: external_exports.array(external_exports.string().min(1)).optional().describe("Required when outcome is needs_review or blocked: what is wrong or missing."),
  callerRole: external_exports.string().min(1).optional().describe("Your declared role; on a gated task it must be the current gate's role."),
  actor: actorParam,
  sessionId: sessionIdParam
});
var svcTaskComplete = {
  name: "svc_task_complete",
  description: "Complete a task you are working on, or advance/reject the current gate of a gated task (outcome required there; blockers required for needs_review and blocked). Pass sessionId, the lease token of your spawn prompt: a task leased to another session is refused (lease_held), a lease that ended is stale. Returns {taskId, status}.",
  params: CompleteParams,
  async handler(params, ctx) {
    assertFieldSize("summary", params.summary);
    assertFieldSize("blockers", params.blockers);
    const result = await completeTask(ctx.store, params.taskId, {
      ...toCaller(params, "svc_task_complete"),
      ...params.summary !== void 0 ? { summary: params.summary } : {},
      ...params.outcome ? { outcome: params.outcome } : {},
      ...params.blockers ? { blockers: params.blockers } : {},
      ...params.callerRole ? { callerRole: params.callerRole } : {}
    }, toFlowLoader(ctx));
    await notifyCommitted(ctx, [result.after.task.id]);
    return { taskId: result.after.task.id, status: result.after.status };
  }
};

// dist/tools/deps.js
var DepParams = toolParams({
  taskId: idParam("The dependent task: full id or unique prefix."),
  blockerId: idParam("The task that must be done first: full id or unique prefix."),
  actor: actorParam
});
var svcTaskDepAdd = {
  name: "svc_task_dep_add",
  description: "Make a task wait until another task (the blocker) is done. Unknown blockers and cycles are refused; adding an existing dependency changes nothing. Returns {taskId, blockerId, dependsOn} with the full updated dependsOn.",
  params: DepParams,
  async handler(params, ctx) {
    const result = await addDependency(ctx.store, params.taskId, params.blockerId, toActor(params));
    await notifyCommitted(ctx, [result.taskId]);
    return { taskId: result.taskId, blockerId: result.blockerId, dependsOn: result.dependsOn };
  }
};
var svcTaskDepRemove = {
  name: "svc_task_dep_remove",
  description: "Remove a dependency of a task. Removing one that is not there changes nothing (removed: false). Returns {taskId, blockerId, dependsOn, removed}.",
  params: DepParams,
  async handler(params, ctx) {
    const result = await removeDependency(ctx.store, params.taskId, params.blockerId, toActor(params));
    await notifyCommitted(ctx, [result.taskId]);
    return { taskId: result.taskId, blockerId: result.blockerId, dependsOn: result.dependsOn, removed: result.changed };
  }
};

// dist/tools/dispatch.js
var DispatchParams = toolParams({
  title: external_exports.string().describe("Short title (at most 500 characters)."),
  brief: external_exports.string().describe("The task body, Markdown: what to do and how to know it is done."),
  agent: external_exports.string().min(1).optional().describe("Target agent id; bypasses org chart routing."),
  team: external_exports.string().min(1).optional().describe("Team id from the org chart."),
  role: external_exports.string().min(1).optional().describe("Role from the org chart."),
  priority: priorityParam.optional().describe("low, normal (default), high or critical."),
  dependsOn: external_exports.array(idParam("Task id or unique prefix.")).optional().describe("Tasks that must be done first (ids or unique prefixes; each must exist)."),
  parentId: idParam("Parent task id or unique prefix.").optional(),
  tags: external_exports.array(external_exports.string().min(1)).optional().describe("Capabilities the agent needs (capability-based routing)."),
  metadata: external_exports.record(external_exports.string(), external_exports.unknown()).optional().describe("Arbitrary key-value data kept with the task."),
  actor: actorParam
});
var svcDispatch = {
  name: "svc_dispatch",
  description: "Create a task and place it in the ready queue. It starts in ready when it has a route (agent, role, team or tags; without an org chart only agent), else in backlog. Returns {taskId, status, filePath}.",
  params: DispatchParams,
  async handler(params, ctx) {
    assertTaskText(params.title, params.brief);
    assertFieldSize("metadata", params.metadata);
    const routing = toRouting(params);
    const ready = isRoutable(routing, await toOrg(ctx));
    const dependsOn = unique(await assertTasksExist(ctx.store, params.dependsOn ?? []));
    const parentId = params.parentId === void 0 ? void 0 : await resolveParent(ctx.store, params.parentId);
    const created = await ctx.store.create({
      title: params.title,
      body: params.brief,
      status: ready ? "ready" : "backlog",
      routing,
      dependsOn,
      ...params.priority ? { priority: params.priority } : {},
      ...parentId ? { parentId } : {},
      ...params.metadata ? { metadata: params.metadata } : {},
      createdBy: params.actor ?? "svc_dispatch",
      actor: toActor(params)
    });
    await notifyCommitted(ctx, [created.task.id]);
    return { taskId: created.task.id, status: created.status, filePath: created.path };
  }
};
function toRouting(params) {
  const routing = {};
  if (params.agent)
    routing.agent = params.agent;
  if (params.team)
    routing.team = params.team;
  if (params.role)
    routing.role = params.role;
  if (params.tags?.length)
    routing.tags = params.tags;
  return routing;
}
async function resolveParent(store, arg) {
  try {
    return await store.resolve(arg);
  } catch (err) {
    if (!isSvcError(err, "not_found"))
      throw err;
    throw new SvcError("not_found", `parentId names ${JSON.stringify(arg)}, which is not a task.`, "Pass the id (or a unique prefix) of an existing task as parentId.", { cause: err });
  }
}
function unique(ids) {
  return [...new Set(ids)];
}

// dist/tools/edit.js
var EditParams = toolParams({
  taskId: idParam("The task: full id or unique prefix."),
  title: external_exports.string().optional().describe("New title (at most 500 characters)."),
  description: external_exports.string().optional().describe("New body (Markdown); replaces the existing one."),
  priority: priorityParam.optional().describe("low, normal, high or critical."),
  routing: external_exports.strictObject({
    role: external_exports.string().min(1).optional(),
    team: external_exports.string().min(1).optional(),
    agent: external_exports.string().min(1).optional(),
    tags: external_exports.array(external_exports.string().min(1)).optional()
  }).optional().describe("Routing fields to set: {role?, team?, agent?, tags?}; fields not given are kept."),
  actor: actorParam
});
var svcTaskEdit = {
  name: "svc_task_edit",
  description: "Edit a task's title, description (body), priority or routing. Fields not given are kept; updatedFields lists what changed. Returns {taskId, updatedFields, task: {title, status, priority}}.",
  params: EditParams,
  async handler(params, ctx) {
    assertTaskText(params.title, params.description);
    if (params.routing)
      assertKnownRouting(params.routing, await toOrg(ctx));
    const { result, updatedFields } = await editTask(ctx.store, params.taskId, toEditInput(params), { actor: toActor(params) });
    const { task, status } = result.after;
    await notifyCommitted(ctx, [task.id]);
    return { taskId: task.id, updatedFields, task: { title: task.title, status, priority: task.priority } };
  }
};
function toEditInput(params) {
  const input = {};
  if (params.title !== void 0)
    input.title = params.title;
  if (params.description !== void 0)
    input.description = params.description;
  if (params.priority)
    input.priority = params.priority;
  if (params.routing)
    input.routing = params.routing;
  return input;
}

// dist/tools/status.js
var DEFAULT_STATUS_LIMIT = 50;
var StatusParams = toolParams({
  agent: external_exports.string().min(1).optional().describe("Only tasks of this agent (its lease, else routing.agent)."),
  status: statusParam.optional().describe("Only tasks in this status; done and cancelled tasks are listed only when asked for here."),
  compact: external_exports.boolean().optional().describe("List {id, status} only (default false)."),
  limit: external_exports.number().int().min(0).max(1e4).optional().describe(`Maximum tasks listed (default ${DEFAULT_STATUS_LIMIT}); total and byStatus count every match.`),
  actor: actorParam
});
var svcStatus = {
  name: "svc_status",
  description: "Overview of tasks: total and byStatus count every task matching the filters (agent, status); tasks lists at most limit of them (default 50), active ones first by priority, done and cancelled only when status asks for them. Returns {total, byStatus, tasks: [{id, title, status, agent?}]}.",
  params: StatusParams,
  async handler(params, ctx) {
    return ctx.index ? summarizeIndex(ctx.index, params) : summarizeStore(ctx.store, params);
  }
};
function toTaskSummary(stored) {
  const { task } = stored;
  const summary = { id: task.id, title: task.title, status: stored.status, priority: task.priority, createdAt: task.createdAt };
  const agent = task.lease?.agent ?? task.routing.agent;
  if (agent)
    summary.agent = agent;
  return summary;
}
function summarize(summaries, params) {
  const byStatus = Object.fromEntries(STATUSES.map((status) => [status, 0]));
  const limit = params.limit ?? DEFAULT_STATUS_LIMIT;
  const top = [];
  let total = 0;
  for (const summary of summaries) {
    if (params.agent !== void 0 && summary.agent !== params.agent)
      continue;
    if (params.status !== void 0 && summary.status !== params.status)
      continue;
    total++;
    byStatus[summary.status] = (byStatus[summary.status] ?? 0) + 1;
    if (params.status === void 0 && isStatus(summary.status) && isTerminal(summary.status))
      continue;
    insertTop(top, summary, limit);
  }
  return { total, byStatus, tasks: top.map((summary) => toEntry(summary, params.compact === true)) };
}
async function summarizeIndex(index, params) {
  if (params.agent !== void 0 || !index.counts) {
    await index.loaded;
    return summarize(index.summaries(), params);
  }
  if (params.status && isTerminal(params.status))
    await index.loaded;
  const wanted = params.status ? [params.status] : STATUSES.filter((status) => !isTerminal(status));
  const result = summarize(wanted.flatMap((status) => [...index.summaries(status)]), params);
  const counts = index.counts();
  result.byStatus = Object.fromEntries(STATUSES.map((status) => [status, counts[status] ?? 0]));
  result.total = params.status ? counts[params.status] ?? 0 : STATUSES.reduce((sum, status) => sum + (counts[status] ?? 0), 0);
  return result;
}
async function summarizeStore(store, params) {
  const wanted = params.status ? [params.status] : STATUSES;
  const read = async (statuses) => (await store.list(statuses)).tasks.map(toTaskSummary);
  if (params.agent !== void 0)
    return summarize(await read(wanted), params);
  const names = await listNames(store.paths, wanted);
  const listed = await read(params.status ? wanted : wanted.filter((status) => !isTerminal(status)));
  const result = summarize(listed, params);
  result.byStatus = Object.fromEntries(STATUSES.map((status) => [status, 0]));
  for (const found of names.values())
    result.byStatus[found[0]] = (result.byStatus[found[0]] ?? 0) + 1;
  result.total = names.size;
  return result;
}
function byListingOrder(a, b) {
  return terminalRank(a) - terminalRank(b) || toPriorityRank(b.priority) - toPriorityRank(a.priority) || compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id);
}
function terminalRank(summary) {
  return isStatus(summary.status) && isTerminal(summary.status) ? 1 : 0;
}
function insertTop(top, summary, limit) {
  if (limit === 0)
    return;
  if (top.length === limit && byListingOrder(summary, top[top.length - 1]) >= 0)
    return;
  let low = 0;
  let high = top.length;
  while (low < high) {
    const mid = low + high >> 1;
    if (byListingOrder(top[mid], summary) <= 0)
      low = mid + 1;
    else
      high = mid;
  }
  top.splice(low, 0, summary);
  if (top.length > limit)
    top.pop();
}
function toEntry(summary, compact) {
  if (compact)
    return { id: summary.id, status: summary.status };
  const entry = { id: summary.id, title: summary.title, status: summary.status };
  if (summary.agent)
    entry.agent = summary.agent;
  return entry;
}

// dist/tools/state.js
var CancelParams = toolParams({
  taskId: idParam("The task: full id or unique prefix."),
  reason: external_exports.string().min(1).optional().describe("Why; logged and kept in metadata.cancelReason."),
  actor: actorParam,
  sessionId: sessionIdParam
});
var svcTaskCancel = {
  name: "svc_task_cancel",
  description: "Cancel a task (terminal: it is never dispatched again). A task leased to someone else is refused unless the call names its sessionId. Returns {taskId, status, transitioned, reason?}.",
  params: CancelParams,
  async handler(params, ctx) {
    const result = await cancelTask(ctx.store, params.taskId, { ...toCaller(params, "svc_task_cancel"), ...withReason(params.reason) });
    return finish(ctx, result, params.reason);
  }
};
var BlockParams = toolParams({
  taskId: idParam("The task: full id or unique prefix."),
  reason: external_exports.string({ error: (iss) => iss.input === void 0 ? "is required: say what the task waits for" : void 0 }).trim().min(1, "is required: say what the task waits for").describe("What the task waits for (required); kept in metadata.blockReason."),
  actor: actorParam,
  sessionId: sessionIdParam
});
var svcTaskBlock = {
  name: "svc_task_block",
  description: "Block a task on an external dependency that is not a task (reason required). On a task you work on, pass your sessionId. Returns {taskId, status, transitioned, reason}.",
  params: BlockParams,
  async handler(params, ctx) {
    const result = await blockTask(ctx.store, params.taskId, { ...toCaller(params, "svc_task_block"), reason: params.reason });
    return finish(ctx, result, params.reason);
  }
};
var UnblockParams = toolParams({
  taskId: idParam("The task: full id or unique prefix."),
  actor: actorParam
});
var svcTaskUnblock = {
  name: "svc_task_unblock",
  description: "Mark a blocked task ready for dispatch again (a gated task stays at its current gate). Returns {taskId, status, transitioned}.",
  params: UnblockParams,
  async handler(params, ctx) {
    return finish(ctx, await unblockTask(ctx.store, params.taskId, { actor: toActor(params) }));
  }
};
function withReason(reason) {
  return reason ? { reason } : {};
}
async function finish(ctx, result, reason) {
  const taskId = result.after.task.id;
  await notifyCommitted(ctx, [taskId]);
  return { taskId, status: result.after.status, transitioned: result.transitioned, ...withReason(reason) };
}

// dist/tools/update.js
var UpdateParams = toolParams({
  taskId: idParam("The task: full id or unique prefix."),
  body: external_exports.string().optional().describe("Replaces the whole body (Markdown)."),
  status: statusParam.optional().describe("New status; must be a valid transition from the current one."),
  reason: external_exports.string().optional().describe("Why; logged with the transition."),
  actor: actorParam,
  sessionId: sessionIdParam
});
var svcTaskUpdate = {
  name: "svc_task_update",
  description: "Change the body or status of a task without completing it; also the heartbeat: any call by the lease holder (same sessionId, or actor = the lease's agent) renews the lease. Pass sessionId, the lease token of your spawn prompt; a stale one is refused, and so is a call on a task leased to someone else (lease_held). Returns {taskId, status, updatedAt, bodyUpdated, transitioned}.",
  params: UpdateParams,
  async handler(params, ctx) {
    if (params.status === "done")
      await assertNotGated(ctx.store, params.taskId);
    const result = await updateTask(ctx.store, params.taskId, {
      ...toCaller(params, "svc_task_update"),
      leaseTtlMs: await toLeaseTtlMs(ctx),
      ...params.body !== void 0 ? { body: params.body } : {},
      ...params.status ? { status: params.status } : {},
      ...params.reason ? { reason: params.reason } : {}
    });
    await notifyCommitted(ctx, [result.taskId]);
    return result;
  }
};
async function assertNotGated(store, arg) {
  const { task } = await store.get(arg);
  const workflow = task.routing.workflow;
  if (!workflow)
    return;
  throw new SvcError("invalid_transition", `${task.id} is in workflow ${workflow} (gate \`${task.gate?.current ?? "first"}\`): it reaches done only through its gates, not svc_task_update.`, `Call svc_task_complete({ taskId: "${task.id}", outcome: "complete" | "needs_review" | "blocked" }).`);
}

// dist/tools/index.js
var TOOLS = [
  svcDispatch,
  svcTaskComplete,
  svcTaskUpdate,
  svcTaskEdit,
  svcTaskCancel,
  svcTaskDepAdd,
  svcTaskDepRemove,
  svcTaskBlock,
  svcTaskUnblock,
  svcStatus
  // Each tool is typed by its own schema; the list holds them under the common contract.
];

export {
  invokeTool,
  TOOLS
};
