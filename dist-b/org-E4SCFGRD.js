import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  loadOrgFile
} from "./chunk-7MGHIX6Y.js";
import "./chunk-PTPZOUXC.js";
import {
  toPaths
} from "./chunk-TAXNM3NS.js";
import "./chunk-KDLUVCXT.js";
import {
  SvcError
} from "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";

// dist/cli/org.js
import { resolve } from "node:path";
function registerOrg(cli, ctx) {
  cli.command("validate [path]", "Validate an org chart (default: org/org-chart.yaml of the svc home)").option("--json", "Print the result as a JSON object").action(async (path, options) => {
    const file = path ? resolve(path) : toPaths(ctx.root).orgChart;
    const org = await loadOrgFile(file);
    if (!org) {
      throw new SvcError("not_found", `No org chart at ${file}.`, `Copy templates/org-chart.yaml to ${toPaths(ctx.root).orgChart} and edit it, or pass the path of one.`);
    }
    const counts = { agents: org.agents.length, teams: org.teams.length, roles: Object.keys(org.roles).length };
    if (options.json)
      return ctx.json({ valid: true, file, ...counts });
    ctx.print("valid");
    for (const [name, count] of Object.entries(counts))
      ctx.print(`${name}: ${count}`);
  });
}
export {
  registerOrg
};
