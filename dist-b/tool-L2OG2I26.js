import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  TOOLS,
  invokeTool
} from "./chunk-V67X4HHO.js";
import "./chunk-Q6YWZLEM.js";
import "./chunk-BHFKD6MH.js";
import "./chunk-FWKO7PZW.js";
import "./chunk-65H2CJZB.js";
import "./chunk-EUW644CT.js";
import "./chunk-RQHJ2EHB.js";
import "./chunk-6RIWMO4X.js";
import "./chunk-RJKZMO5M.js";
import "./chunk-RG3YKIXV.js";
import "./chunk-7MGHIX6Y.js";
import "./chunk-PTPZOUXC.js";
import "./chunk-TAXNM3NS.js";
import "./chunk-KDLUVCXT.js";
import {
  SvcError
} from "./chunk-3TDHIPSR.js";
import "./chunk-V4RWK56N.js";

// dist/cli/tool.js
import { readFileSync } from "node:fs";
function registerTool(cli, ctx) {
  cli.command("tool <name> [params]", "Invoke an svc_* tool; params is a JSON object, or - to read it from stdin").example(`svc tool svc_task_complete '{"taskId":"TASK-2026-11-21-001","summary":"done"}'`).action(async (name, params) => {
    const text = params === "-" ? readFileSync(0, "utf8") : params ?? "{}";
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new SvcError("validation_error", `params is not JSON: ${err.message}`, `Quote the object, e.g. svc tool ${name} '{"taskId":"..."}'`);
    }
    const result = await invokeTool(TOOLS, name, parsed, { store: ctx.store() });
    ctx.json(result);
  });
}
export {
  registerTool
};
