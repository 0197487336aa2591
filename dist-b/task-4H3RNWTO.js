import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  registerTaskList
} from "./chunk-6VAOZMD7.js";
import {
  formatTaskDetail,
  toList,
  toListRow,
  toText
} from "./chunk-B5DKL4LX.js";
import "./chunk-SKFLEAYI.js";
import {
  assertTasksExist,
  blockTask,
  cancelTask,
  claimTask,
  closeTask,
  promoteTask,
  resurrectTask,
  setStatus,
  unblockTask,
  updateTaskAsOperator
} from "./chunk-65H2CJZB.js";
import {
  firstGate,
  loadWorkflow
} from "./chunk-EUW644CT.js";
import "./chunk-RQHJ2EHB.js";
import {
  PRIORITIES
} from "./chunk-6RIWMO4X.js";
import "./chunk-SBT3SZU2.js";
import "./chunk-RJKZMO5M.js";
import "./chunk-RG3YKIXV.js";
import {
  loadOrg
} from "./chunk-7MGHIX6Y.js";
import "./chunk-PTPZOUXC.js";
import "./chunk-TAXNM3NS.js";
import {
  assertStatus
} from "./chunk-KDLUVCXT.js";
import {
  SvcError
} from "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";

// dist/cli/task.js
var CREATOR = "cli";
var OPERATOR = "operator";
function registerTask(cli, ctx) {
  cli.command("create <...title>", "Create a task in backlog; prints its id on the first line").option("--agent <id>", "Route to this agent").option("--team <id>", "Route to this team").option("--role <role>", "Route to this role").option("--tags <tags>", "Comma-separated capability tags").option("--priority <p>", `One of ${PRIORITIES.join(", ")}`, { default: "normal" }).option("--depends-on <ids>", "Comma-separated ids this task waits for").option("--body <text>", "Markdown body").option("--project <id>", "Project id", { default: "default" }).option("--parent <id>", "Parent task id").option("--workflow <name>", "Gate the task through org/workflows/<name>.yaml").option("--json", "Print JSON").action(async (title, opts) => {
    const store = ctx.store();
    const workflow = toText(opts.workflow) === void 0 ? void 0 : await loadWorkflow(ctx.root, toText(opts.workflow), { org: await loadOrg(ctx.root) });
    const routing = Object.fromEntries(Object.entries({ agent: toText(opts.agent), team: toText(opts.team), role: toText(opts.role), tags: toList(opts.tags), workflow: workflow && toText(opts.workflow) }).filter(([, v]) => v !== void 0));
    const dependsOn = await assertTasksExist(store, toList(opts.dependsOn) ?? []);
    const parentId = toText(opts.parent) === void 0 ? void 0 : await store.resolve(toText(opts.parent));
    const created = await store.create({
      title: title.join(" "),
      body: toText(opts.body),
      priority: toPriority(opts.priority),
      routing,
      dependsOn,
      project: toText(opts.project),
      createdBy: CREATOR,
      actor: OPERATOR,
      ...parentId ? { parentId } : {},
      ...workflow ? { gate: { workflow: toText(opts.workflow), current: firstGate(workflow).id, history: [] } } : {}
    });
    if (opts.json)
      return ctx.json(toListRow(created));
    ctx.print(created.task.id);
    ctx.print(`created in ${created.status}: ${created.path}`);
  });
  cli.command("promote <id>", "Move a task from backlog to ready").action(async (id) => {
    printMove(ctx, await promoteTask(ctx.store(), String(id), { actor: OPERATOR }));
  });
  withLeaseOptions(cli.command("status <id> <status>", "Move a task to a status along the transition table").option("--reason <text>", "Logged with the transition")).action(async (id, status, opts) => {
    const caller = toCaller(opts, (task) => `svc task status ${task} ${status}${withFlag("reason", opts.reason)}`);
    printMove(ctx, await setStatus(ctx.store(), String(id), assertStatus(status), { ...caller, reason: toText(opts.reason) }));
  });
  registerTaskList(cli, ctx);
  cli.command("show <id>", "Show a task").option("--json", "Print JSON").action(async (id, opts) => {
    const stored = await ctx.store().get(String(id));
    if (opts.json)
      return ctx.json({ ...stored.task, status: stored.status, body: stored.body, path: stored.path });
    formatTaskDetail(stored).forEach((line) => ctx.print(line));
  });
  cli.command("resurrect <id>", "Move a deadlettered task back to ready, resetting its failure count").action(async (id) => {
    printMove(ctx, await resurrectTask(ctx.store(), String(id), { actor: OPERATOR }));
  });
  registerLeased(cli, ctx);
  registerMore(cli, ctx);
}
function registerLeased(cli, ctx) {
  const recover = ["--recover-on-failure", "When the command fails on an expired lease, reclaim the task to ready (then retry)"];
  withLeaseOptions(cli.command("close <id>", "Move a task to done from any non-terminal status").option(...recover).option("--reason <text>", "Logged with the transition")).action(async (id, opts) => {
    const caller = toCaller(opts, (task) => `svc task close ${task}${withFlag("reason", opts.reason)}`);
    printMove(ctx, await closeTask(ctx.store(), String(id), { ...caller, recover: !!opts.recoverOnFailure, reason: toText(opts.reason) }));
  });
  withLeaseOptions(cli.command("update <id>", "Replace the body and/or change the status").option(...recover).option("--body <text>", "New Markdown body").option("--status <status>", "New status").option("--reason <text>", "Logged with the transition")).action(async (id, opts) => {
    if (opts.body === void 0 && opts.status === void 0)
      throw new SvcError("validation_error", "Nothing to update.", "Pass --body and/or --status.");
    const status = opts.status === void 0 ? void 0 : assertStatus(opts.status);
    const caller = toCaller(opts, (task) => `svc task update ${task}${withFlag("body", opts.body)}${withFlag("status", opts.status)}${withFlag("reason", opts.reason)}`);
    const result = await updateTaskAsOperator(ctx.store(), String(id), { ...caller, body: toText(opts.body), status, reason: toText(opts.reason), recover: !!opts.recoverOnFailure });
    ctx.print(`${result.taskId} ${result.status}${result.transitioned ? " (moved)" : ""}${result.bodyUpdated ? " (body replaced)" : ""}`);
  });
  cli.command("claim <id>", "Take a ready task in progress under a 10-minute lease; prints the lease's session id").option(...recover).option("--agent <id>", "Lease holder and actor", { default: OPERATOR }).action(async (id, opts) => {
    const caller = toCaller(opts, (task2) => `svc task claim ${task2}`);
    const result = await claimTask(ctx.store(), String(id), { ...caller, agent: caller.actor, recover: !!opts.recoverOnFailure });
    const lease = result.after.task.lease;
    const task = result.after.task.id;
    ctx.print(`${task} in-progress: leased to ${lease.agent} until ${lease.expiresAt} (session ${lease.sessionId})`);
    const as = lease.agent === OPERATOR ? "" : ` --agent ${lease.agent}`;
    ctx.print(`next: svc task close ${task}${as}, svc task update ${task}${as} --body ..., or name the lease with --session ${lease.sessionId}`);
  });
}
function registerMore(cli, ctx) {
  withLeaseOptions(cli.command("cancel <id>", "Cancel a task").option("--reason <text>", "Why")).action(async (id, opts) => {
    const caller = toCaller(opts, (task) => `svc task cancel ${task}${withFlag("reason", opts.reason)}`);
    printMove(ctx, await cancelTask(ctx.store(), String(id), { ...caller, reason: toText(opts.reason) }));
  });
  withLeaseOptions(cli.command("block <id>", "Block a task on something outside the task graph").option("--reason <text>", "What it waits for (required)")).action(async (id, opts) => {
    const caller = toCaller(opts, (task) => `svc task block ${task}${withFlag("reason", opts.reason)}`);
    printMove(ctx, await blockTask(ctx.store(), String(id), { ...caller, reason: toText(opts.reason) ?? "" }));
  });
  cli.command("unblock <id>", "Move a blocked task back to ready").action(async (id) => {
    printMove(ctx, await unblockTask(ctx.store(), String(id), { actor: OPERATOR }));
  });
}
function withLeaseOptions(command) {
  return command.option("--agent <id>", `Act as this agent (default ${OPERATOR}); the holder of a lease moves its own task`).option("--session <id>", "Name the lease to act under (its session id, from `svc task claim` or `svc task show`)");
}
function toCaller(opts, command) {
  const sessionId = toText(opts.session);
  return {
    actor: toText(opts.agent) ?? OPERATOR,
    ...sessionId ? { sessionId } : {},
    retry: (taskId, session) => `${command(taskId)} --session ${session}`
  };
}
function withFlag(name, value) {
  const text = toText(value);
  return text === void 0 ? "" : ` --${name} '${text.replaceAll("'", "'\\''")}'`;
}
function printMove(ctx, result) {
  const id = result.after.task.id;
  if (result.transitioned)
    ctx.print(`${id} ${result.before.status} -> ${result.after.status}`);
  else
    ctx.print(`${id} already ${result.after.status}`);
}
function toPriority(value) {
  const text = String(value ?? "normal");
  if (PRIORITIES.includes(text))
    return text;
  throw new SvcError("validation_error", `Unknown priority ${JSON.stringify(text)}.`, `Use one of: ${PRIORITIES.join(", ")}.`);
}
export {
  registerTask
};
