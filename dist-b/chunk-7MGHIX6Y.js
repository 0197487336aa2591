import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  external_exports,
  isSafeId,
  parseYaml
} from "./chunk-PTPZOUXC.js";
import {
  SvcError
} from "./chunk-3TDHIPSR.js";

// dist/org/files.js
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
function toOrgChartFile(root) {
  return join(resolve(root), "org", "org-chart.yaml");
}
function toWorkflowsDir(root) {
  return join(resolve(root), "org", "workflows");
}
function toWorkflowFile(root, name) {
  return join(toWorkflowsDir(root), `${name}.yaml`);
}
async function readIfExists(file) {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    const code = err.code;
    if (code === "ENOENT")
      return null;
    throw new SvcError("unavailable", `${file}: cannot be read (${code ?? String(err)}).`, "Check that the path is a readable file.", { cause: err });
  }
}

// dist/org/problems.js
function toPathString(path) {
  let out = "";
  for (const key of path)
    out += typeof key === "number" ? `[${key}]` : `${out ? "." : ""}${String(key)}`;
  return out || "(root)";
}
function toProblems(issues) {
  return issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: toPathString([...issue.path, key]), problem: issue.message }));
    }
    return [{ path: toPathString(issue.path), problem: issue.message }];
  });
}
function describeIssue(iss) {
  if (iss.code !== "invalid_type")
    return void 0;
  if (iss.input === void 0)
    return `required (${iss.expected})`;
  return `must be ${article(iss.expected)} (found ${describeValue(iss.input)})`;
}
function throwProblems(source, what, problems, hint) {
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  const lines = problems.map((p) => `  ${p.path}: ${p.problem}`).join("\n");
  throw new SvcError("validation_error", `${source}: invalid ${what} (${count}):
${lines}`, hint);
}
function asRecord(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : null;
}
function recordsOf(value) {
  if (!Array.isArray(value))
    return [];
  return value.flatMap((item, index) => {
    const record = asRecord(item);
    return record ? [[index, record]] : [];
  });
}
function article(expected) {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
function describeValue(value) {
  if (value === null)
    return "null";
  if (Array.isArray(value))
    return "a list";
  if (typeof value === "object")
    return "a mapping";
  return `${typeof value} ${JSON.stringify(value)}`;
}

// dist/org/references.js
function checkReferences(data) {
  const chart = asRecord(data);
  if (!chart)
    return [];
  const agents = recordsOf(chart.agents);
  const teams = recordsOf(chart.teams);
  const agentIds = idsOf(agents);
  const teamIds = idsOf(teams);
  return [
    ...duplicates("agents", "agent", agents),
    ...duplicates("teams", "team", teams),
    ...agents.flatMap(([i, agent]) => unknownRef(`agents[${i}].team`, agent.team, teamIds, "team")),
    ...teams.flatMap(([i, team]) => checkTeam(`teams[${i}]`, team, agentIds)),
    ...checkRoles(chart.roles, agentIds)
  ];
}
function idsOf(entries) {
  return [...new Set(entries.flatMap(([, entry]) => typeof entry.id === "string" ? [entry.id] : []))];
}
function duplicates(list, what, entries) {
  const first = /* @__PURE__ */ new Map();
  const problems = [];
  for (const [i, entry] of entries) {
    if (typeof entry.id !== "string")
      continue;
    const seen = first.get(entry.id);
    if (seen === void 0)
      first.set(entry.id, i);
    else
      problems.push({ path: `${list}[${i}].id`, problem: `duplicate ${what} id ${JSON.stringify(entry.id)} (first at ${list}[${seen}])` });
  }
  return problems;
}
function checkTeam(path, team, agentIds) {
  const problems = [];
  if (Array.isArray(team.members)) {
    team.members.forEach((member, j) => problems.push(...unknownRef(`${path}.members[${j}]`, member, agentIds, "agent")));
  }
  problems.push(...unknownRef(`${path}.orchestrator`, team.orchestrator, agentIds, "agent"));
  if (team.murmur !== void 0 && (typeof team.orchestrator !== "string" || !team.orchestrator)) {
    problems.push({ path: `${path}.orchestrator`, problem: "required when murmur is configured (the agent that receives review tasks)" });
  }
  return problems;
}
function checkRoles(roles, agentIds) {
  const record = asRecord(roles);
  if (!record)
    return [];
  return Object.entries(record).flatMap(([name, role]) => {
    const agents = asRecord(role)?.agents;
    if (!Array.isArray(agents))
      return [];
    return agents.flatMap((agent, j) => unknownRef(`roles.${name}.agents[${j}]`, agent, agentIds, "agent"));
  });
}
function unknownRef(path, value, known, what) {
  if (typeof value !== "string" || !value || known.includes(value))
    return [];
  const list = known.length ? known.join(", ") : "none declared";
  return [{ path, problem: `unknown ${what} ${JSON.stringify(value)} (known ${what}s: ${list})` }];
}

// dist/org/schema.js
var id = external_exports.string().min(1, "must not be empty").refine(isSafeId, 'must be letters, digits, ".", "_" or "-" (no "/", no "..")');
var positiveInt = external_exports.number().int("must be a whole number").positive("must be greater than 0");
var text = external_exports.string();
function closed(shape) {
  const known = Object.keys(shape).join(", ");
  return external_exports.strictObject(shape, { error: (iss) => iss.code === "unrecognized_keys" ? `unknown setting (known: ${known})` : void 0 });
}
var TriggerSchema = external_exports.discriminatedUnion("kind", [
  closed({ kind: external_exports.literal("queueEmpty") }),
  closed({ kind: external_exports.literal("completionBatch"), threshold: positiveInt }),
  closed({ kind: external_exports.literal("interval"), intervalMs: positiveInt }),
  closed({ kind: external_exports.literal("failureBatch"), threshold: positiveInt })
], { error: (iss) => `must be one of queueEmpty, completionBatch, interval, failureBatch (found ${JSON.stringify(iss.input?.kind)})` });
var DEFAULT_REVIEW_TIMEOUT_MS = 30 * 60 * 1e3;
var contextSection = external_exports.string().refine(isSafeId, 'must be taskSummary or the name of a document org/<name>.md (letters, digits, ".", "_", "-")');
var MurmurSchema = closed({
  triggers: external_exports.array(TriggerSchema).min(1, "needs at least one trigger"),
  context: external_exports.array(contextSection).default([]),
  reviewTimeoutMs: positiveInt.default(DEFAULT_REVIEW_TIMEOUT_MS)
});
var AgentSchema = external_exports.looseObject({
  id,
  name: text,
  active: external_exports.boolean().default(true),
  capabilities: external_exports.array(text).default([]),
  team: external_exports.string().min(1).optional(),
  maxConcurrent: positiveInt.default(1),
  command: external_exports.array(external_exports.string().min(1, "must not be empty")).min(1, "needs at least the program to run").optional(),
  env: external_exports.record(external_exports.string(), external_exports.string()).optional()
});
var TeamSchema = external_exports.looseObject({
  id,
  name: text,
  members: external_exports.array(text).default([]),
  orchestrator: external_exports.string().min(1).optional(),
  murmur: MurmurSchema.optional()
});
var RoleSchema = external_exports.looseObject({
  agents: external_exports.array(text).default([]),
  description: text.optional()
});
var pathEntry = external_exports.looseObject({ path: text });
var MemoryPoolsSchema = external_exports.looseObject({
  hot: pathEntry.optional(),
  warm: external_exports.array(external_exports.looseObject({ id: text, path: text })).default([]),
  cold: pathEntry.optional()
});
var WatchdogSchema = closed({
  enabled: external_exports.boolean().default(false),
  pollIntervalMs: positiveInt.default(6e4),
  restartPolicy: closed({ maxRestarts: positiveInt.default(3), windowMs: positiveInt.default(36e5) }).prefault({}),
  alerting: closed({ channel: text.optional(), webhook: text.optional() }).prefault({})
});
var DaemonSettingsSchema = closed({
  pollIntervalMs: positiveInt.default(3e4),
  rescanIntervalMs: positiveInt.default(5e3),
  bootWindowMs: positiveInt.default(1e4),
  maxConcurrentDispatches: positiveInt.default(3),
  defaultLeaseTtlMs: positiveInt.default(18e5),
  heartbeatTtlMs: positiveInt.default(3e5),
  spawnTimeoutMs: positiveInt.default(3e4),
  gatewayUrl: external_exports.url({ error: "must be a URL such as http://127.0.0.1:18789" }).optional(),
  healthPort: external_exports.number().int("must be a whole number").min(1, "must be a port from 1 to 65535").max(65535, "must be a port from 1 to 65535").optional(),
  dryRun: external_exports.boolean().default(false),
  watchdog: WatchdogSchema.prefault({})
});
var ProjectSlaSchema = external_exports.looseObject({
  defaultMaxInProgressMs: positiveInt.optional(),
  researchMaxInProgressMs: positiveInt.optional(),
  onViolation: external_exports.literal("alert", {
    error: (iss) => `only "alert" is supported, found ${JSON.stringify(iss.input)} (block and deadletter are reserved for a later phase)`
  }).default("alert"),
  alerting: external_exports.looseObject({ rateLimitMinutes: external_exports.number().positive("must be greater than 0").default(15) }).prefault({})
});
var AofSchema = external_exports.looseObject({
  daemon: DaemonSettingsSchema.prefault({}),
  projects: external_exports.record(external_exports.string(), external_exports.looseObject({ sla: ProjectSlaSchema.optional() })).default({})
});
var OrgChartSchema = external_exports.looseObject({
  schemaVersion: external_exports.literal(1, { error: (iss) => `must be 1 (found ${JSON.stringify(iss.input)})` }),
  agents: external_exports.array(AgentSchema).default([]),
  teams: external_exports.array(TeamSchema).default([]),
  roles: external_exports.record(external_exports.string(), RoleSchema).default({}),
  memoryPools: MemoryPoolsSchema.optional(),
  aof: AofSchema.prefault({})
});

// dist/org/org-chart.js
var HINT = "Fix the listed fields (templates/org-chart.yaml is a complete example), then run `svc org validate`.";
async function loadOrg(root) {
  return loadOrgFile(toOrgChartFile(root));
}
async function loadOrgFile(file) {
  const text2 = await readIfExists(file);
  if (text2 === null)
    return null;
  return validateOrg(parseYaml(text2, file), file);
}
function validateOrg(data, source) {
  const result = OrgChartSchema.safeParse(data, { error: describeIssue });
  const problems = [...result.success ? [] : toProblems(result.error.issues), ...checkReferences(data)];
  if (problems.length || !result.success)
    throwProblems(source, "org chart", problems, HINT);
  return result.data;
}
function toDaemonSettings(org) {
  return structuredClone(org ? org.aof.daemon : DaemonSettingsSchema.parse({}));
}

export {
  toOrgChartFile,
  toWorkflowsDir,
  toWorkflowFile,
  readIfExists,
  toProblems,
  describeIssue,
  throwProblems,
  recordsOf,
  loadOrg,
  loadOrgFile,
  validateOrg,
  toDaemonSettings
};
