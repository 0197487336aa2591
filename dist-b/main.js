import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  readVersion
} from "./chunk-XUHEHVJF.js";
import "./chunk-CNII3WO7.js";
import "./chunk-V4RWK56N.js";

// dist/cli/main.js
var GROUPS = {
  task: async () => (await import("./task-4H3RNWTO.js")).registerTask,
  daemon: async () => (await import("./daemon-SNP6GRLY.js")).registerDaemon,
  org: async () => (await import("./org-E4SCFGRD.js")).registerOrg,
  scheduler: async () => (await import("./scheduler-6Z7A22QM.js")).registerScheduler
};
var LIGHT = {
  "task list": async () => (await import("./task-list-SKBXVCC2.js")).registerTaskList
};
var LIGHT_TOP = {
  events: async () => (await import("./events-TZTNFGH7.js")).registerEvents,
  init: async () => (await import("./init-6U2XLTX7.js")).registerInit
};
async function loadTop() {
  const [board, doctor, mcp, tool, quickstart, events] = await Promise.all([import("./board-TDGGLZBO.js"), import("./doctor-TOEPDYUT.js"), import("./mcp-Z7H22YEB.js"), import("./tool-L2OG2I26.js"), import("./quickstart-JPSMD7R5.js"), import("./events-TZTNFGH7.js")]);
  return [board.registerBoard, doctor.registerDoctor, mcp.registerMcp, tool.registerTool, quickstart.registerQuickstart, events.registerEvents, (await import("./init-6U2XLTX7.js")).registerInit];
}
async function main(argv, io) {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-v") {
    io.stdout(`${readVersion()}
`);
    return 0;
  }
  const [{ cac }, { createContext, loadStore }, { SvcError, toSvcError }] = await Promise.all([import("./dist-BHJ5LFYJ.js"), import("./context-4DAK2BGT.js"), import("./errors-FIHR5M5S.js")]);
  const ctx = createContext(io);
  const light = first ? LIGHT[`${first} ${rest[0] ?? ""}`] : void 0;
  const load = light ?? (first && Object.hasOwn(GROUPS, first) ? GROUPS[first] : void 0);
  const top = first && Object.hasOwn(LIGHT_TOP, first) ? LIGHT_TOP[first] : void 0;
  if (!light && !top)
    await loadStore();
  const group = load ? await load() : void 0;
  const cli = cac(group ? `svc ${first}` : "svc");
  if (group)
    group(cli, ctx);
  else if (top)
    (await top())(cli, ctx);
  else
    (await loadTop()).forEach((register) => register(cli, ctx));
  if (!group) {
    for (const name of Object.keys(GROUPS))
      cli.command(`${name} [...args]`, `${name} commands (svc ${name} --help)`);
  }
  cli.help();
  try {
    cli.parse(["node", "svc", ...group ? toIdArgs(first, rest) : argv], { run: false });
    if (cli.options.help)
      return 0;
    if (!cli.matchedCommand)
      return usage(ctx, toUnknown(first, group ? rest[0] : void 0), cli);
    if (!group && Object.hasOwn(GROUPS, cli.matchedCommandName ?? ""))
      return usage(ctx, `svc ${first} needs a subcommand.`, cli);
    await cli.runMatchedCommand();
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof Error && err.name === "CACError")
      return usage(ctx, err.message, cli);
    return fail(ctx, argv, err instanceof SvcError ? err : toSvcError(err), err);
  }
}
async function run() {
  const io = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env
  };
  process.exitCode = await main(process.argv.slice(2), io);
}
function toIdArgs(group, args) {
  const [sub, id, ...more] = args;
  if (group !== "task" || sub === "create" || id === void 0 || !/^-\d{3,}$/.test(id))
    return [...args];
  return [sub, id.slice(1), ...more];
}
function toUnknown(first, sub) {
  if (!first)
    return "No command given.";
  if (sub === void 0 && Object.hasOwn(GROUPS, first))
    return `svc ${first} needs a subcommand.`;
  return `Unknown command: svc ${first}${sub === void 0 ? "" : ` ${sub}`}.`;
}
function usage(ctx, message, cli) {
  ctx.io.stderr(`svc: ${message}
hint: run \`${cli.name} --help\` for the commands and options.
`);
  return 2;
}
function fail(ctx, argv, error, err) {
  if (argv.includes("--json")) {
    ctx.io.stderr(`${JSON.stringify(error.toJSON())}
`);
    return 1;
  }
  ctx.io.stderr(`svc: ${error.message}
`);
  if (error.hint)
    ctx.io.stderr(`hint: ${error.hint}
`);
  if (error !== err && process.env.DEBUG)
    ctx.io.stderr(`${err.stack ?? ""}
`);
  return 1;
}
export {
  main,
  run
};
