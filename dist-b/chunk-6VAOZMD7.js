import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  formatInvalid,
  formatTaskTable,
  toListRow,
  toText
} from "./chunk-B5DKL4LX.js";
import {
  loadStore
} from "./chunk-SKFLEAYI.js";
import {
  requestDaemon,
  toDaemonError
} from "./chunk-SBT3SZU2.js";
import {
  compareText
} from "./chunk-RG3YKIXV.js";
import {
  toPaths
} from "./chunk-TAXNM3NS.js";
import {
  STATUSES,
  assertStatus
} from "./chunk-KDLUVCXT.js";
import {
  isSvcError
} from "./chunk-3TDHIPSR.js";

// dist/cli/task-list.js
import { existsSync } from "node:fs";
function registerTaskList(cli, ctx) {
  cli.command("list", "List tasks").option("--status <status>", `Only this status (${STATUSES.join(", ")})`).option("--agent <id>", "Only tasks routed or leased to this agent").option("--json", "Print a JSON array").action(async (opts) => {
    const status = opts.status === void 0 ? void 0 : assertStatus(opts.status);
    const { rows, invalid } = await listFromDaemon(ctx, status) ?? await listFromStore(ctx, status);
    const agent = toText(opts.agent);
    const shown = agent ? rows.filter((row) => row.agent === agent) : rows;
    formatInvalid(invalid).forEach((line) => ctx.io.stderr(`${line}
`));
    if (opts.json)
      return ctx.io.stdout(`${JSON.stringify(shown)}
`);
    formatTaskTable(shown).forEach((line) => ctx.print(line));
  });
}
async function listFromDaemon(ctx, status) {
  const paths = toPaths(ctx.root);
  if (!existsSync(paths.socket))
    return null;
  let reply;
  try {
    reply = await requestDaemon(paths.socket, "GET", `/v1/tasks${status ? `?status=${status}` : ""}`, void 0, { timeoutMs: 6e4 });
  } catch (err) {
    if (isSvcError(err, "unavailable"))
      return null;
    throw err;
  }
  if (reply.status !== 200)
    throw toDaemonError(reply.status, reply.body);
  const body = reply.body;
  const rows = body.tasks.map((t) => ({
    id: t.id,
    title: t.title,
    status: t.status,
    priority: t.priority,
    agent: t.agent ?? null,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    dependsOn: t.dependsOn,
    path: paths.taskFile(t.status, t.id)
  }));
  return { rows: rows.sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id)), invalid: body.invalid };
}
async function listFromStore(ctx, status) {
  await loadStore();
  const { tasks, invalid } = await ctx.store().list(status ? [status] : STATUSES);
  return { rows: tasks.map(toListRow), invalid };
}

export {
  registerTaskList
};
