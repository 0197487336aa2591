import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  toBoardLines
} from "./chunk-265OEWKX.js";
import "./chunk-B5DKL4LX.js";
import {
  startDaemonProcess,
  stopDaemonProcess
} from "./chunk-5ZO2XJSR.js";
import "./chunk-PM6OXDIW.js";
import "./chunk-577AH7VX.js";
import "./chunk-6VNVH7IV.js";
import "./chunk-V67X4HHO.js";
import "./chunk-Q6YWZLEM.js";
import {
  templatePath
} from "./chunk-CNII3WO7.js";
import "./chunk-BHFKD6MH.js";
import "./chunk-FWKO7PZW.js";
import "./chunk-65H2CJZB.js";
import "./chunk-EUW644CT.js";
import "./chunk-RQHJ2EHB.js";
import "./chunk-6RIWMO4X.js";
import "./chunk-SBT3SZU2.js";
import "./chunk-RJKZMO5M.js";
import "./chunk-RG3YKIXV.js";
import "./chunk-7MGHIX6Y.js";
import "./chunk-PTPZOUXC.js";
import "./chunk-TAXNM3NS.js";
import {
  STATUSES
} from "./chunk-KDLUVCXT.js";
import {
  SvcError
} from "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";

// dist/cli/quickstart.js
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
var AGENT = templatePath("quickstart", "agent.mjs");
function registerQuickstart(cli, ctx) {
  cli.command("quickstart", "Create a sample workspace (two local agents), start the daemon and watch tasks flow to done").option("--keep-running", "Leave the daemon running afterwards").option("--timeout <seconds>", "Give up after this long (a positive number of seconds)", { default: 120 }).action(async (opts) => {
    const timeoutS = toTimeout(opts.timeout);
    const store = ctx.store();
    writeWorkspace(ctx, store);
    const started = await startDaemonProcess(ctx);
    try {
      const ids = await createSampleTasks(store);
      ctx.print(`
Created ${ids.length} tasks; the daemon dispatches them to the sample agents:
`);
      await follow(ctx, store, ids, timeoutS * 1e3);
    } finally {
      if (started && !opts.keepRunning)
        await stopDaemonProcess(ctx, false);
    }
    if (opts.keepRunning || !started)
      ctx.print("The daemon is still running: `svc board`, `svc daemon status`, `svc daemon stop`.");
  });
}
function toTimeout(value) {
  const seconds = typeof value === "number" ? value : Number(String(value ?? "").trim() || NaN);
  if (Number.isFinite(seconds) && seconds > 0 && seconds <= 86400)
    return seconds;
  throw new SvcError("validation_error", `--timeout must be a number of seconds between 0 and 86400; got ${JSON.stringify(value)}.`, "For example: svc quickstart --timeout 300");
}
function writeWorkspace(ctx, store) {
  const { orgChart, workflows } = store.paths;
  const chart = readFileSync(templatePath("quickstart", "org-chart.yaml"), "utf8").replaceAll("{{NODE}}", process.execPath).replaceAll("{{AGENT}}", AGENT);
  const workflow = readFileSync(templatePath("workflows", "implement-review.yaml"), "utf8");
  const files = [[orgChart, chart], [`${workflows}/implement-review.yaml`, workflow]];
  for (const [file, text] of files)
    assertSampleOrAbsent(file, text);
  mkdirSync(workflows, { recursive: true });
  for (const [file, text] of files)
    writeFileSync(file, text);
  ctx.print(`Workspace: ${store.paths.root}`);
  ctx.print(`  org chart ${orgChart} (agents implementer and reviewer run ${AGENT})`);
}
function assertSampleOrAbsent(file, text) {
  if (!existsSync(file))
    return;
  const found = readFileSync(file, "utf8");
  if (found === text)
    return;
  const [mine, theirs] = [text.split("\n"), found.split("\n")];
  const line = mine.findIndex((row, i) => row !== theirs[i]);
  const at = line === -1 ? theirs.length : line + 1;
  throw new SvcError("validation_error", `${file} already exists and differs from the quickstart's sample (first difference at line ${at}: ${JSON.stringify(theirs[at - 1] ?? "")}); the quickstart does not overwrite it.`, `Keep it and run your own setup with \`svc daemon start\`; or move it aside (mv ${file} ${file}.mine) and rerun; or run the sample in a fresh home: SVC_HOME=/tmp/svc-quickstart svc quickstart`);
}
async function createSampleTasks(store) {
  const gate = { workflow: "implement-review", current: "implement", history: [] };
  const gated = (title, priority) => store.create({ title, priority, status: "ready", routing: { workflow: "implement-review" }, gate, createdBy: "quickstart", body: `${title}, then have it reviewed.` });
  const parse = await gated("Parse the config file", "high");
  const cli = await gated("Add a --verbose flag", "normal");
  const hotfix = await gated("Fix the crash on empty input", "critical");
  const docs = await store.create({
    title: "Document the new flag",
    status: "ready",
    routing: { agent: "implementer" },
    dependsOn: [cli.task.id],
    createdBy: "quickstart",
    body: "Write the docs once the flag has landed."
  });
  return [parse, cli, hotfix, docs].map((t) => t.task.id);
}
async function follow(ctx, store, ids, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  for (; ; ) {
    const mine = await Promise.all(ids.map((id) => store.get(id)));
    const counts = STATUSES.map((status) => [status, mine.filter((t) => t.status === status).length]).filter(([, n]) => n > 0);
    const line = counts.map(([status, n]) => `${status} ${n}`).join(", ");
    if (line !== last)
      ctx.print(`  ${(/* @__PURE__ */ new Date()).toISOString().slice(11, 19)}  ${last = line}`);
    if (mine.every((t) => t.status === "done"))
      break;
    if (Date.now() > deadline) {
      throw new SvcError("unavailable", `The sample tasks did not all finish within ${timeoutMs / 1e3} s (${line}).`, `See ${store.paths.daemonLog} and ${store.paths.logs}/agents.log.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  ctx.print("");
  toBoardLines(await Promise.all(ids.map((id) => store.get(id)))).forEach((text) => ctx.print(text));
  ctx.print(`
All ${ids.length} tasks are done. Events: ${store.paths.events}/`);
}
export {
  registerQuickstart
};
