import type { CAC } from 'cac';
import type { SvcError as SvcErrorType } from '../core/errors.js';
import type { Context, Io } from './context.js';
import { readVersion } from './version.js';

/** A command group (`svc task ...`) registers its subcommands on its own cac instance. */
type Group = (cli: CAC, ctx: Context) => void;

// Each command module is loaded only when its command runs, so `svc --version` stays fast.
const GROUPS: Record<string, () => Promise<Group>> = {
  task: async () => (await import('./task.js')).registerTask,
  daemon: async () => (await import('./daemon.js')).registerDaemon,
  org: async () => (await import('./org.js')).registerOrg,
  scheduler: async () => (await import('./scheduler.js')).registerScheduler,
};

// Commands that need no store up front (they load it only if they must): `svc task list` with a daemon up.
const LIGHT: Record<string, () => Promise<Group>> = {
  'task list': async () => (await import('./task-list.js')).registerTaskList,
};

// Top-level commands that load alone, without the store: `svc events` only reads JSONL.
const LIGHT_TOP: Record<string, () => Promise<Group>> = {
  events: async () => (await import('./events.js')).registerEvents,
  init: async () => (await import('./init.js')).registerInit,
};

/** Top-level commands (`svc board`, `svc doctor`, ...) register on the root instance. */
async function loadTop(): Promise<Group[]> {
  const [board, doctor, mcp, tool, quickstart, events] = await Promise.all([import('./board.js'), import('./doctor.js'), import('./mcp.js'), import('./tool.js'), import('./quickstart.js'), import('./events.js')]);
  return [board.registerBoard, doctor.registerDoctor, mcp.registerMcp, tool.registerTool, quickstart.registerQuickstart, events.registerEvents, (await import('./init.js')).registerInit];
}

/** Runs the CLI and returns the exit code: 0 ok, 1 error, 2 usage, 3 daemon not running. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-v') {
    io.stdout(`${readVersion()}\n`);
    return 0;
  }
  const [{ cac }, { createContext, loadStore }, { SvcError, toSvcError }] = await Promise.all([import('cac'), import('./context.js'), import('../core/errors.js')]);
  const ctx = createContext(io);
  const light = first ? LIGHT[`${first} ${rest[0] ?? ''}`] : undefined;
  const load = light ?? (first && Object.hasOwn(GROUPS, first) ? GROUPS[first] : undefined);
  const top = first && Object.hasOwn(LIGHT_TOP, first) ? LIGHT_TOP[first] : undefined;
  if (!light && !top) await loadStore();
  const group = load ? await load() : undefined;
  const cli = cac(group ? `svc ${first}` : 'svc');
  if (group) group(cli, ctx);
  else if (top) (await top())(cli, ctx);
  else (await loadTop()).forEach((register) => register(cli, ctx));
  if (!group) {
    for (const name of Object.keys(GROUPS)) cli.command(`${name} [...args]`, `${name} commands (svc ${name} --help)`);
  }
  cli.help();
  try {
    cli.parse(['node', 'svc', ...(group ? toIdArgs(first, rest) : toToolArgs(argv))], { run: false });
    if (cli.options.help) return 0;
    if (!cli.matchedCommand) return usage(ctx, argv, toUnknown(first, group ? rest[0] : undefined), cli);
    if (!group && Object.hasOwn(GROUPS, cli.matchedCommandName ?? '')) return usage(ctx, argv, `svc ${first} needs a subcommand.`, cli);
    await cli.runMatchedCommand();
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof Error && err.name === 'CACError') return usage(ctx, argv, err.message, cli);
    return fail(ctx, argv, err instanceof SvcError ? err : toSvcError(err), err);
  }
}

/** The entry of `bin/svc.js`: runs `main` on the process and sets the exit code. */
export async function run(): Promise<void> {
  const io: Io = {
    stdout: toPipeWriter(process.stdout),
    stderr: toPipeWriter(process.stderr),
    env: process.env,
  };
  process.exitCode = await main(process.argv.slice(2), io);
}

// --- internal ---

/** `svc task show -007`: a short id written with its dash, right after the subcommand, is the id argument, not an option. */
function toIdArgs(group: string | undefined, args: readonly string[]): string[] {
  const [sub, id, ...more] = args;
  if (group !== 'task' || sub === 'create' || id === undefined || !/^-\d{3,}$/.test(id)) return [...args];
  return [sub!, id.slice(1), ...more];
}

/** `svc tool <name> -`: the argument parser drops a lone `-`, so it becomes `--stdin` before parsing. */
function toToolArgs(argv: readonly string[]): string[] {
  const [command, name, params, ...more] = argv;
  if (command !== 'tool' || params !== '-') return [...argv];
  return [command, name!, '--stdin', ...more];
}

function toUnknown(first: string | undefined, sub: string | undefined): string {
  if (!first) return 'No command given.';
  if (sub === undefined && Object.hasOwn(GROUPS, first)) return `svc ${first} needs a subcommand.`;
  return `Unknown command: svc ${first}${sub === undefined ? '' : ` ${sub}`}.`;
}

/** A usage error: exit 2, the message and the help hint; with `--json`, the error shape. */
function usage(ctx: Context, argv: readonly string[], message: string, cli: CAC): number {
  const help = `\`${cli.name} --help\` for the commands and options.`;
  if (argv.includes('--json')) ctx.io.stderr(`${JSON.stringify({ ok: false, error: { code: 'validation_error', message, hint: `Run ${help}` } })}\n`);
  else ctx.io.stderr(`svc: ${message}\nhint: run ${help}\n`);
  return 2;
}

/**
 * Writes to stdout or stderr; once the reader has gone (`svc task create x | head -1`), the rest is
 * dropped quietly: EPIPE is the reader's choice, not a failure of the command.
 */
function toPipeWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    closed = true;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}

function fail(ctx: Context, argv: readonly string[], error: SvcErrorType, err: unknown): number {
  if (argv.includes('--json')) {
    ctx.io.stderr(`${JSON.stringify(error.toJSON())}\n`);
    return 1;
  }
  ctx.io.stderr(`svc: ${error.message}\n`);
  if (error.hint) ctx.io.stderr(`hint: ${error.hint}\n`);
  if (error !== err && process.env.DEBUG) ctx.io.stderr(`${(err as Error).stack ?? ''}\n`);
  return 1;
}
