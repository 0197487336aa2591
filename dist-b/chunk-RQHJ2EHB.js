import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  PRIORITIES
} from "./chunk-6RIWMO4X.js";
import {
  external_exports,
  isSafeId
} from "./chunk-PTPZOUXC.js";
import {
  STATUSES
} from "./chunk-KDLUVCXT.js";
import {
  SvcError
} from "./chunk-3TDHIPSR.js";

// dist/core/task.js
var MAX_TITLE_LENGTH = 500;
var MAX_BODY_BYTES = 1024 * 1024;
var timestamp = external_exports.iso.datetime({ offset: true });
var idString = external_exports.string().refine(isSafeId, 'must be letters, digits, ".", "_" or "-" (no "/", no "..")');
var RoutingSchema = external_exports.looseObject({
  agent: external_exports.string().min(1).optional(),
  team: external_exports.string().min(1).optional(),
  role: external_exports.string().min(1).optional(),
  tags: external_exports.array(external_exports.string()).optional(),
  workflow: external_exports.string().min(1).optional()
});
var LeaseSchema = external_exports.looseObject({
  agent: external_exports.string().min(1),
  expiresAt: timestamp,
  sessionId: external_exports.string().min(1)
});
var SlaSchema = external_exports.looseObject({
  maxInProgressMs: external_exports.number().positive().optional(),
  onViolation: external_exports.literal("alert", { error: 'only "alert" is supported (block and deadletter are reserved)' }).optional()
});
var GateSchema = external_exports.looseObject({
  workflow: external_exports.string().min(1),
  current: external_exports.string().min(1),
  history: external_exports.array(external_exports.record(external_exports.string(), external_exports.unknown())).default([])
});
var TaskSchema = external_exports.looseObject({
  schemaVersion: external_exports.literal(1),
  id: idString,
  project: external_exports.string().min(1),
  title: external_exports.string().min(1).max(MAX_TITLE_LENGTH),
  status: external_exports.enum(STATUSES),
  priority: external_exports.enum(PRIORITIES),
  routing: RoutingSchema,
  createdAt: timestamp,
  updatedAt: timestamp,
  lastTransitionAt: timestamp,
  createdBy: external_exports.string().min(1),
  dependsOn: external_exports.array(idString),
  metadata: external_exports.record(external_exports.string(), external_exports.unknown()),
  lease: LeaseSchema.optional(),
  sla: SlaSchema.optional(),
  parentId: idString.optional(),
  gate: GateSchema.optional()
});
var TASK_KEY_ORDER = [
  "schemaVersion",
  "id",
  "project",
  "title",
  "status",
  "priority",
  "routing",
  "createdAt",
  "updatedAt",
  "lastTransitionAt",
  "createdBy",
  "dependsOn",
  "metadata",
  "lease",
  "sla",
  "parentId",
  "gate"
];
function parseTask(data, source) {
  const result = TaskSchema.safeParse(data);
  if (result.success)
    return result.data;
  throw new SvcError("validation_error", `${source}: invalid task frontmatter:
${formatIssues(result.error.issues)}`, "Fix the listed fields; the file is left out of scheduling until it parses.");
}
function formatIssues(issues) {
  return issues.map((issue) => `  ${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`).join("\n");
}
function toOrderedTask(task) {
  const out = {};
  for (const key of TASK_KEY_ORDER)
    if (task[key] !== void 0)
      out[key] = task[key];
  for (const [key, value] of Object.entries(task))
    if (!(key in out) && value !== void 0)
      out[key] = value;
  return out;
}
function toDispatchFailures(metadata) {
  const failures = Number(metadata.dispatchFailures ?? 0);
  return Number.isFinite(failures) ? failures : 0;
}
function assertTaskText(title, body) {
  if (title !== void 0 && title.length > MAX_TITLE_LENGTH) {
    throw new SvcError("too_large", `Title has ${title.length} characters; the limit is ${MAX_TITLE_LENGTH}.`, "Shorten the title and put the detail in the body.");
  }
  if (title !== void 0 && !title.trim())
    throw new SvcError("validation_error", "Title is empty.", "Give the task a short title.");
  if (body !== void 0 && Buffer.byteLength(body) > MAX_BODY_BYTES) {
    throw new SvcError("too_large", `Body has ${Buffer.byteLength(body)} bytes; the limit is ${MAX_BODY_BYTES}.`, "Keep large material in files and link to them from the body.");
  }
}

export {
  parseTask,
  formatIssues,
  toOrderedTask,
  toDispatchFailures,
  assertTaskText
};
