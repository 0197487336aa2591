import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  describeIssue,
  readIfExists,
  recordsOf,
  throwProblems,
  toProblems,
  toWorkflowFile,
  toWorkflowsDir
} from "./chunk-7MGHIX6Y.js";
import {
  external_exports,
  isSafeId,
  parseYaml
} from "./chunk-PTPZOUXC.js";
import {
  SvcError
} from "./chunk-3TDHIPSR.js";

// dist/org/workflow.js
import { readdir } from "node:fs/promises";
var GateDefSchema = external_exports.looseObject({
  id: external_exports.string().min(1, "must not be empty"),
  role: external_exports.string().min(1, "must not be empty"),
  description: external_exports.string().default(""),
  canReject: external_exports.boolean().optional()
});
var WorkflowSchema = external_exports.looseObject({
  name: external_exports.string().min(1, "must not be empty"),
  rejectionStrategy: external_exports.literal("origin", { error: (iss) => `must be "origin" (found ${JSON.stringify(iss.input)})` }).default("origin"),
  gates: external_exports.array(GateDefSchema).min(1, "needs at least one gate"),
  outcomes: external_exports.looseObject({
    complete: external_exports.literal("advance", { error: 'must be "advance"' }).default("advance"),
    needs_review: external_exports.literal("reject", { error: 'must be "reject"' }).default("reject"),
    blocked: external_exports.literal("hold", { error: 'must be "hold"' }).default("hold")
  }).prefault({})
});
var FileSchema = external_exports.looseObject({ workflow: WorkflowSchema });
async function loadWorkflow(root, name, options = {}) {
  if (!isSafeId(name)) {
    throw new SvcError("validation_error", `Invalid workflow name ${JSON.stringify(name)}: names are letters, digits, '.', '_' and '-'.`, "Set routing.workflow to the name of a file in org/workflows/ without .yaml.");
  }
  const file = toWorkflowFile(root, name);
  const text = await readIfExists(file);
  if (text === null) {
    const known = await listWorkflows(root);
    const hint = known.length ? `Known workflows: ${known.join(", ")}.` : "No workflows exist yet: copy templates/workflows/implement-review.yaml into org/workflows/.";
    throw new SvcError("not_found", `Workflow ${JSON.stringify(name)} not found: ${file} does not exist.`, hint);
  }
  return validateWorkflow(parseYaml(text, file), file, options);
}
async function listWorkflows(root) {
  const names = await readdir(toWorkflowsDir(root)).catch(() => []);
  return names.filter((n) => n.endsWith(".yaml") && !n.startsWith(".")).map((n) => n.slice(0, -5)).sort();
}
function validateWorkflow(data, source, options = {}) {
  const result = FileSchema.safeParse(data, { error: describeIssue });
  const gates = recordsOf(data?.workflow?.gates);
  const problems = [
    ...result.success ? [] : toProblems(result.error.issues),
    ...duplicateGates(gates),
    ...options.org ? unknownRoles(gates, options.org) : []
  ];
  if (problems.length || !result.success) {
    throwProblems(source, "workflow", problems, "Fix the listed fields (templates/workflows/implement-review.yaml is an example).");
  }
  return result.data.workflow;
}
function firstGate(workflow) {
  return workflow.gates[0];
}
function findGate(workflow, gateId) {
  return workflow.gates.find((gate) => gate.id === gateId) ?? null;
}
function duplicateGates(gates) {
  const seen = /* @__PURE__ */ new Set();
  const problems = [];
  for (const [i, gate] of gates) {
    if (typeof gate.id === "string" && seen.has(gate.id)) {
      problems.push({ path: `workflow.gates[${i}].id`, problem: `duplicate gate id ${JSON.stringify(gate.id)}` });
    }
    seen.add(gate.id);
  }
  return problems;
}
function unknownRoles(gates, org) {
  const known = Object.keys(org.roles);
  return gates.flatMap(([i, gate]) => {
    if (typeof gate.role !== "string" || !gate.role || known.includes(gate.role))
      return [];
    const list = known.length ? known.join(", ") : "none declared";
    return [{ path: `workflow.gates[${i}].role`, problem: `unknown role ${JSON.stringify(gate.role)} (org chart roles: ${list})` }];
  });
}

export {
  loadWorkflow,
  listWorkflows,
  firstGate,
  findGate
};
