import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  createFileCache
} from "./chunk-6VNVH7IV.js";
import {
  loadOrg,
  toDaemonSettings
} from "./chunk-7MGHIX6Y.js";

// dist/daemon/org-state.js
import { relative } from "node:path";
var SHOWN_PROBLEMS = 5;
function createOrgState(root, file, now, log) {
  const name = relative(root, file) || file;
  let chart = null;
  let report = { file: name, orgChart: "absent", agents: 0, problems: [], problemCount: 0, since: now().toISOString() };
  const cache = createFileCache(file, async () => {
    try {
      const loaded = await loadOrg(root);
      if (report.orgChart === "invalid")
        log(`org chart ${name} is valid again: ${loaded?.agents.length ?? 0} agents`);
      chart = loaded;
      report = { file: name, orgChart: loaded ? "ok" : "absent", agents: loaded?.agents.length ?? 0, problems: [], problemCount: 0, since: now().toISOString() };
    } catch (err) {
      const problems = toProblemLines(err);
      report = {
        file: name,
        orgChart: "invalid",
        agents: chart?.agents.length ?? 0,
        problems: problems.slice(0, SHOWN_PROBLEMS),
        problemCount: problems.length,
        using: chart ? "previous" : "none",
        since: now().toISOString()
      };
      const first = problems.slice(0, SHOWN_PROBLEMS).join("; ");
      if (chart)
        log(`warning: org chart ${name} is invalid, still using the chart loaded before (fix it; svc org validate): ${first}`);
      else
        log(`error: org chart ${name} is invalid and no valid chart is loaded: ready tasks are held (reason org-chart) until it is fixed (svc org validate): ${first}`);
    }
    return chart;
  });
  return {
    get: () => cache.get(),
    settings: () => toDaemonSettings(chart),
    problem() {
      if (report.orgChart !== "invalid" || chart)
        return null;
      const count = report.problemCount === 1 ? "1 problem" : `${report.problemCount} problems`;
      return `org chart ${name} is invalid (${count}: ${report.problems.slice(0, 2).join("; ")}); fix it, then check with svc org validate`;
    },
    async report() {
      await cache.get();
      return { ...report, problems: [...report.problems] };
    }
  };
}
function toProblemLines(err) {
  const message = err instanceof Error ? err.message : String(err);
  const [head = "", ...rest] = message.split("\n");
  const lines = rest.map((line) => line.trim()).filter(Boolean);
  return lines.length ? lines : [head];
}

export {
  createOrgState,
  toProblemLines
};
