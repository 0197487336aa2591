import { cac, type CAC } from 'cac';
import { SvcError, toSvcError } from '../core/errors.js';
import { createContext, type Context, type Io } from './context.js';
import { registerBoard } from './board.js';
import { registerDaemon } from './daemon.js';
import { registerDoctor } from './doctor.js';
import { registerMcp } from './mcp.js';
import { registerOrg } from './org.js';
import { registerScheduler } from './scheduler.js';
import { registerTask } from './task.js';
import { registerTool } from './tool.js';
import { readVersion } from './version.js';

/** A command group (`svc task ...`) registers its subcommands on its own cac instance. */
type Group = (cli: CAC, ctx: Context) => void;

const GROUPS: Record<string, Group> = {
  task: registerTask,
  daemon: registerDaemon,
  org: registerOrg,
  scheduler: registerScheduler,
};

/** Top-level commands (`svc board`, `svc doctor`, ...) register on the root instance. */
const TOP: Group[] = [registerBoard, registerDoctor, registerMcp, registerTool];

/** Runs the CLI and returns the exit code: 0 ok, 1 error, 2 usage, 3 daemon not running. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const ctx = createContext(io);
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-v') {
    ctx.print(readVersion());
    return 0;
  }
  const group = first && Object.hasOwn(GROUPS, first) ? GROUPS[first] : undefined;
  const cli = cac(group ? `svc ${first}` : 'svc');
  if (group) group(cli, ctx);
  else TOP.forEach((register) => register(cli, ctx));
  if (!group) {
    for (const name of Object.keys(GROUPS)) cli.command(`${name} [...args]`, `${name} commands (svc ${name} --help)`);
  }
  cli.help();
  try {
    cli.parse(['node', 'svc', ...(group ? rest : argv)], { run: false });
    if (cli.options.help) return 0;
    if (!cli.matchedCommand) return usage(ctx, toUnknown(first, group ? rest[0] : undefined), cli);
    if (!group && Object.hasOwn(GROUPS, cli.matchedCommandName ?? '')) return usage(ctx, `svc ${first} needs a subcommand.`, cli);
    await cli.runMatchedCommand();
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof Error && err.name === 'CACError') return usage(ctx, err.message, cli);
    return fail(ctx, argv, err);
  }
}

/** The entry of `bin/svc.js`: runs `main` on the process and sets the exit code. */
export async function run(): Promise<void> {
  const io: Io = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
  };
  process.exitCode = await main(process.argv.slice(2), io);
}

// --- internal ---

function toUnknown(first: string | undefined, sub: string | undefined): string {
  if (!first) return 'No command given.';
  if (sub === undefined && Object.hasOwn(GROUPS, first)) return `svc ${first} needs a subcommand.`;
  return `Unknown command: svc ${first}${sub === undefined ? '' : ` ${sub}`}.`;
}

function usage(ctx: Context, message: string, cli: CAC): number {
  ctx.io.stderr(`svc: ${message}\nhint: run \`${cli.name} --help\` for the commands and options.\n`);
  return 2;
}

function fail(ctx: Context, argv: readonly string[], err: unknown): number {
  const error = toSvcError(err);
  if (argv.includes('--json')) {
    ctx.io.stderr(`${JSON.stringify(error.toJSON())}\n`);
    return 1;
  }
  ctx.io.stderr(`svc: ${error.message}\n`);
  if (error.hint) ctx.io.stderr(`hint: ${error.hint}\n`);
  if (!(err instanceof SvcError) && process.env.DEBUG) ctx.io.stderr(`${(err as Error).stack ?? ''}\n`);
  return 1;
}
