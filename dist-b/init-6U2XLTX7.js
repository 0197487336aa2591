import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  SvcError
} from "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";

// dist/cli/init.js
import { basename } from "node:path";
import { createInterface } from "node:readline/promises";
function registerInit(cli, ctx) {
  cli.command("init", "Register svc in the OpenClaw gateway config: plugin, allow-lists, agents both ways, skill, token").option("--yes", "Apply every step without asking (the memory module stays disabled)").option("--dry-run", "Print what would change and write nothing").option("--standalone", "Register `svc mcp` as the gateway MCP server instead of the plugin").option("--config <path>", "The gateway config (default: OPENCLAW_CONFIG_PATH, else ~/.openclaw/openclaw.json)").option("--json", "Print the steps as JSON").action(async (flags) => {
    const { runInit } = await import("./run-QGE5HNZN.js");
    const terminal = !flags.yes && !flags.dryRun && !flags.json && Boolean(process.stdin.isTTY && process.stdout.isTTY);
    const prompt = terminal ? createInterface({ input: process.stdin, output: process.stdout }) : void 0;
    prompt?.on("SIGINT", () => prompt.close());
    const ask = prompt && (async (question, fallback) => {
      try {
        return (await prompt.question(`${question} `)).trim() || fallback;
      } catch (err) {
        throw new SvcError("unavailable", "svc init stopped at a prompt: nothing was written.", "Run svc init again, or `svc init --dry-run` to see the plan.", { cause: err });
      }
    });
    try {
      const report = await runInit({
        root: ctx.root,
        env: ctx.io.env,
        now: /* @__PURE__ */ new Date(),
        yes: Boolean(flags.yes),
        dryRun: Boolean(flags.dryRun),
        standalone: Boolean(flags.standalone),
        ...flags.config ? { configOption: String(flags.config) } : {},
        ...ask ? { ask } : {}
      });
      if (flags.json)
        return ctx.json(report);
      printReport(ctx, report, { yes: Boolean(flags.yes), dryRun: Boolean(flags.dryRun), terminal });
    } finally {
      prompt?.close();
    }
  });
}
function printReport(ctx, report, mode) {
  ctx.print(`Gateway config: ${report.config}`);
  ctx.print(`Org chart:      ${report.orgChart}`);
  if (mode.dryRun)
    ctx.print("Dry run: nothing is written.");
  else if (!mode.yes && !mode.terminal)
    ctx.print("No terminal to ask on: this is the plan, nothing is changed. Run `svc init --yes` to apply it.");
  ctx.print("");
  for (const step of report.steps) {
    const why = step.why ? ` (${step.why})` : "";
    ctx.print(`${step.status.padEnd(13)} ${step.step}${why}`);
    for (const change of step.changes)
      ctx.print(`${" ".repeat(16)}${change}`);
    for (const note of step.notes ?? [])
      ctx.print(`${" ".repeat(16)}note: ${note}`);
  }
  const { config: configBackup, orgChart: orgBackup } = report.backups;
  if (configBackup && report.commentsDropped) {
    ctx.print(`
The rewrite of ${basename(report.config)} does not keep its comments; the original, comments included, is in ${configBackup}`);
  } else if (configBackup) {
    ctx.print(`
Backup of the previous gateway config: ${configBackup}`);
  }
  if (orgBackup)
    ctx.print(`Backup of the previous org chart (the rewrite does not keep its comments): ${orgBackup}`);
  if (report.applied) {
    ctx.print("\nNext: restart the gateway (or let it reload its config), run `svc daemon start`, and check that `svc daemon status` prints a `Plugin:` line.");
  } else if (!mode.dryRun && report.steps.every((step) => step.status !== "planned")) {
    ctx.print("\nNothing to change.");
  }
}
export {
  registerInit
};
