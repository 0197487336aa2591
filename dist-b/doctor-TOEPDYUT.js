import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  toProblemLines
} from "./chunk-577AH7VX.js";
import "./chunk-6VNVH7IV.js";
import {
  LOCK_STALE_MS,
  appendEvents,
  byNewest,
  commitTask,
  initTree,
  moveToConflicts,
  readTaskFile,
  withLock
} from "./chunk-BHFKD6MH.js";
import "./chunk-FWKO7PZW.js";
import {
  listWorkflows,
  loadWorkflow
} from "./chunk-EUW644CT.js";
import "./chunk-RQHJ2EHB.js";
import "./chunk-6RIWMO4X.js";
import {
  hasCode,
  unlinkDurable
} from "./chunk-RJKZMO5M.js";
import "./chunk-RG3YKIXV.js";
import {
  loadOrg
} from "./chunk-7MGHIX6Y.js";
import "./chunk-PTPZOUXC.js";
import {
  isTempName,
  toTaskId
} from "./chunk-TAXNM3NS.js";
import {
  STATUSES,
  isStatus
} from "./chunk-KDLUVCXT.js";
import {
  isSvcError
} from "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";

// dist/cli/doctor.js
import { relative as relative2 } from "node:path";

// dist/store/reconcile.js
import { readdir, stat } from "node:fs/promises";
import { join, relative } from "node:path";
var RECONCILE_KINDS = ["missing", "temporary", "duplicate", "heal", "invalid", "stray"];
var RECONCILE_LOCK_WAIT_MS = LOCK_STALE_MS + 5e3;
function isFixable(kind) {
  return kind !== "invalid" && kind !== "stray";
}
async function planReconcile(paths, now) {
  const scan = await scanTree(paths);
  const actions = [...scan.temps, ...scan.strays];
  const copies = await readCopies(scan.files);
  for (const [id, found] of copies)
    actions.push(...planTask(paths, id, found));
  const order = (a) => RECONCILE_KINDS.indexOf(a.kind);
  actions.sort((a, b) => order(a) - order(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { root: paths.root, now, actions: [...await planMissing(paths), ...actions] };
}
async function applyReconcile(paths, plan, actor, options = {}) {
  const waitMs = options.lockWaitMs ?? RECONCILE_LOCK_WAIT_MS;
  const result = { applied: [], skipped: [], failed: [], remaining: [] };
  for (const action of plan.actions) {
    if (!isFixable(action.kind)) {
      result.remaining.push(action);
      continue;
    }
    try {
      const done = await applyAction(paths, plan.now, action, { actor, waitMs });
      (done ? result.applied : result.skipped).push(action);
    } catch (err) {
      result.failed.push({ action, message: err instanceof Error ? err.message : String(err) });
    }
  }
  return result;
}
async function applyAction(paths, now, action, how) {
  const lock = (id, fn) => withLock(paths.lockFile(id), { what: id, waitMs: how.waitMs }, fn);
  switch (action.kind) {
    case "missing":
      await initTree(paths);
      return true;
    case "temporary":
      return lock(action.id, () => unlinkDurable(action.path));
    case "duplicate": {
      const moved = await lock(action.id, () => resolveDuplicate(paths, action.id, now));
      if (moved)
        await appendEvents(paths.root, now, [{ type: "recovery_action", taskId: action.id, actor: how.actor, payload: { action: "duplicate_resolved", details: moved } }]);
      return moved !== null;
    }
    case "heal":
      return heal(paths, action.id, now, how);
    default:
      return false;
  }
}
async function resolveDuplicate(paths, id, now) {
  const found = await readCopies(STATUSES.map((status) => ({ id, status, path: paths.taskFile(status, id) })));
  const valid = (found.get(id) ?? []).filter(isStored).sort(byNewest);
  if (valid.length < 2)
    return null;
  const conflicts = [];
  for (const loser of valid.slice(1))
    conflicts.push(relative(paths.root, await moveToConflicts(paths, loser.path, now)));
  return { kept: relative(paths.root, valid[0].path), conflicts };
}
async function heal(paths, id, now, how) {
  try {
    const result = await commitTask(paths, id, (cur) => cur.task.status === cur.status ? null : { task: cur.task, body: cur.body, status: cur.status }, {
      now,
      actor: how.actor,
      lockWaitMs: how.waitMs
    });
    return result.changed;
  } catch (err) {
    if (isSvcError(err, "not_found"))
      return false;
    throw err;
  }
}
function planTask(paths, id, found) {
  const rel = (path) => relative(paths.root, path);
  const bad = found.filter((copy) => !isStored(copy));
  if (bad.length)
    return bad.map(({ path, error }) => toInvalid(rel(path), path, error.message));
  const valid = found.sort(byNewest);
  const winner = valid[0];
  const out = [];
  if (valid.length > 1) {
    const losers = valid.slice(1).map((copy) => copy.path);
    const line = `duplicate ${id}: keep ${rel(winner.path)} (updatedAt ${winner.task.updatedAt}), move ${losers.map(rel).join(", ")} to ${rel(paths.conflicts)}/`;
    out.push({ kind: "duplicate", id, path: winner.path, losers, line });
  }
  if (winner.task.status !== winner.status) {
    const line = `heal ${id}: frontmatter says ${winner.task.status}, directory says ${winner.status} (${rel(winner.path)})`;
    out.push({ kind: "heal", id, path: winner.path, from: winner.task.status, to: winner.status, line });
  }
  return out;
}
function toInvalid(rel, path, message) {
  const reason = message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message;
  return { kind: "invalid", path, message, line: `invalid ${rel}: ${reason.replace(/\s*\n\s*/g, "; ")}` };
}
async function planMissing(paths) {
  const out = [];
  for (const status of STATUSES) {
    const dir = paths.statusDir(status);
    const rel = relative(paths.root, dir);
    if (!await exists(dir))
      out.push({ kind: "missing", path: dir, line: `create ${rel}/ (missing status directory)` });
    else if (!await exists(join(dir, ".gitkeep")))
      out.push({ kind: "missing", path: join(dir, ".gitkeep"), line: `create ${rel}/.gitkeep (missing)` });
  }
  return out;
}
async function scanTree(paths) {
  const scan = { files: [], temps: [], strays: [] };
  const walk = async (dir, depth) => {
    for (const entry of await readdirOrEmpty(dir)) {
      if (entry.name.startsWith("."))
        continue;
      const path = join(dir, entry.name);
      const rel = relative(paths.root, path);
      const status = depth === 1 ? relative(paths.tasks, dir) : "";
      if (entry.isDirectory()) {
        if (depth < 8)
          await walk(path, depth + 1);
      } else if (isStatus(status)) {
        classify(scan, { name: entry.name, path, rel, status });
      } else if (entry.name.endsWith(".md")) {
        scan.strays.push({ kind: "stray", path, line: `stray ${rel}: not in a status directory, so not read as a task (move it into tasks/<status>/ or out of tasks/)` });
      }
    }
  };
  await walk(paths.tasks, 0);
  return scan;
}
function classify(scan, file) {
  const id = toTaskId(file.name);
  if (id)
    scan.files.push({ id, path: file.path, status: file.status });
  else if (isTempName(file.name)) {
    const tempId = file.name.slice(0, file.name.indexOf(".md."));
    scan.temps.push({ kind: "temporary", id: tempId, path: file.path, line: `remove temporary file ${file.rel}` });
  } else if (file.name.endsWith(".md")) {
    scan.strays.push(toInvalid(file.rel, file.path, 'the file name is not <id>.md with a valid id (letters, digits, ".", "_", "-"), so it is not read as a task'));
  }
}
async function readCopies(files) {
  const out = /* @__PURE__ */ new Map();
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const { id, path, status } = files[next++];
      const copy = await readTaskFile(path).catch((err) => hasCode(err, "ENOENT") ? null : { path, status, error: toError(err) });
      if (!copy)
        continue;
      const list = out.get(id);
      if (list)
        list.push(copy);
      else
        out.set(id, [copy]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(64, files.length) }, worker));
  return out;
}
function isStored(copy) {
  return !("error" in copy);
}
function toError(err) {
  return err instanceof Error ? err : new Error(String(err));
}
async function exists(path) {
  return stat(path).then(() => true, (err) => hasCode(err, "ENOENT") ? false : Promise.reject(err));
}
async function readdirOrEmpty(dir) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (hasCode(err, "ENOENT") || hasCode(err, "ENOTDIR"))
      return [];
    throw err;
  }
}

// dist/cli/doctor.js
function registerDoctor(cli, ctx) {
  cli.command("doctor", "Check the org chart, the workflows and the tasks tree: heals, duplicates, temporaries, invalid and stray files").option("--fix", "Apply the fixes (invalid and stray files, and configuration problems, are only reported)").option("--json", "Print the plan or the result as a JSON object").action(async (options) => {
    const store = ctx.store();
    const config = await checkConfig(ctx.root);
    const plan = await planReconcile(store.paths, store.clock());
    if (!options.json)
      printConfig(ctx, config);
    if (!options.fix)
      printPlan(ctx, plan, options.json === true, config);
    else
      printResult(ctx, await applyReconcile(store.paths, plan, "doctor"), options.json === true, config);
    if (config.length)
      ctx.exitCode = 1;
  });
}
async function checkConfig(root) {
  const out = [];
  const org = await loadOrg(root).catch((err) => {
    out.push({ file: "org/org-chart.yaml", problems: toProblemLines(err) });
    return null;
  });
  for (const name of await listWorkflows(root)) {
    await loadWorkflow(root, name, { org }).catch((err) => out.push({ file: relative2(root, `${root}/org/workflows/${name}.yaml`), problems: toProblemLines(err) }));
  }
  return out;
}
var NOUNS = {
  missing: ["missing directory", "missing directories"],
  temporary: ["temporary file", "temporary files"],
  duplicate: ["duplicate", "duplicates"],
  heal: ["heal", "heals"],
  invalid: ["invalid file", "invalid files"],
  stray: ["stray file", "stray files"]
};
var INVALID_HINT = "fix the listed files (or move them out of tasks/); they are left out of scheduling until they parse, and svc doctor reports them until then.";
function printConfig(ctx, config) {
  for (const { file, problems } of config) {
    ctx.print(`invalid ${file.endsWith("org-chart.yaml") ? "org chart" : "workflow"}: ${file} (${plural(problems.length, ["problem", "problems"])})`);
    for (const problem of problems)
      ctx.print(`  ${problem}`);
  }
  if (config.length)
    ctx.print("hint: fix the listed fields (svc org validate checks the org chart); a daemon holds ready tasks while no valid org chart is loaded.");
}
function printPlan(ctx, plan, json, config) {
  const { actions } = plan;
  ctx.exitCode = actions.length ? 1 : 0;
  if (json)
    return ctx.json({ ok: actions.length === 0 && config.length === 0, problems: actions.length + config.length, counts: toCounts(actions), actions, config });
  for (const action of actions)
    ctx.print(action.line);
  ctx.print(actions.length ? `${toSummary(actions, "problem")}` : config.length ? "tasks tree: no problems" : "ok: no problems");
  if (actions.some((action) => isFixable(action.kind)))
    ctx.print("hint: run `svc doctor --fix` to apply the fixes.");
  if (actions.some((action) => action.kind === "invalid"))
    ctx.print(`hint: ${INVALID_HINT}`);
}
function printResult(ctx, result, json, config) {
  const invalid = result.remaining.filter((action) => action.kind === "invalid");
  ctx.exitCode = invalid.length || result.failed.length ? 1 : 0;
  if (json) {
    return ctx.json({ ok: ctx.exitCode === 0 && config.length === 0, fixed: result.applied.length, counts: toCounts(result.applied), ...result, config });
  }
  for (const action of result.applied)
    ctx.print(`fixed: ${action.line}`);
  for (const { action, message } of result.failed)
    ctx.print(`failed: ${action.line}: ${message}`);
  for (const action of result.remaining)
    ctx.print(action.line);
  const clean = !result.failed.length && !result.remaining.length;
  const parts = [result.applied.length ? `fixed ${toSummary(result.applied, "problem")}` : clean ? config.length ? "tasks tree: no problems" : "ok: no problems" : "nothing fixed"];
  if (result.failed.length)
    parts.push(`${result.failed.length} failed`);
  if (result.remaining.length)
    parts.push(`reported, not changed: ${toSummary(result.remaining, "file")}`);
  ctx.print(parts.join("; "));
  if (result.failed.length)
    ctx.print("hint: run `svc doctor --fix` again once no other svc process holds those tasks.");
  if (invalid.length)
    ctx.print(`hint: ${INVALID_HINT}`);
}
function toCounts(actions) {
  const counts = {};
  for (const action of actions)
    counts[action.kind] = (counts[action.kind] ?? 0) + 1;
  return counts;
}
function toSummary(actions, noun) {
  const counts = toCounts(actions);
  const parts = RECONCILE_KINDS.filter((kind) => counts[kind]).map((kind) => plural(counts[kind], NOUNS[kind]));
  return `${plural(actions.length, [noun, `${noun}s`])}: ${parts.join(", ")}`;
}
function plural(count, [one, many]) {
  return `${count} ${count === 1 ? one : many}`;
}
export {
  checkConfig,
  registerDoctor
};
