import { cac, type CAC } from 'cac';
import { SvcError, toSvcError } from '../core/errors.js';
import { toDidYouMean } from '../core/suggest.js';
import { createContext, loadStore, type Context, type Io } from './context.js';
import { formatHelp } from './help.js';

/** A module's commands, registered on a cac instance. */
type Register = (cli: CAC, ctx: Context) => void;

/** A command (or group) and how it loads: only the module of the command that runs is imported. */
interface Entry {
  load: () => Promise<Register>;
  /** Load the store module up front (commands that call `ctx.store()` synchronously). */
  store?: boolean;
}

/** `svc <group> <command>`: each group registers its commands on its own cac instance. */
const GROUPS: Record<string, Entry & { summary: string }> = {
  task: { summary: 'Create, list, show and move tasks (svc task --help)', load: async () => (await import('./task.js')).registerTask },
  daemon: { summary: 'Run, start, stop or install the daemon, and its status (svc daemon --help)', load: async () => (await import('./daemon.js')).registerDaemon },
  org: { summary: 'Check the org chart (svc org --help)', load: async () => (await import('./org.js')).registerOrg },
  scheduler: { summary: 'One scheduler tick, or its plan (svc scheduler --help)', load: async () => (await import('./scheduler.js')).registerScheduler, store: true },
};

/** `svc <command>`: top-level commands. */
const TOP: Record<string, Entry> = {
  board: { load: async () => (await import('./board.js')).registerBoard },
  tool: { load: async () => (await import('./tool.js')).registerTool },
  events: { load: async () => (await import('./events.js')).registerEvents },
  doctor: { load: async () => (await import('./doctor.js')).registerDoctor, store: true },
  quickstart: { load: async () => (await import('./quickstart.js')).registerQuickstart, store: true },
  mcp: { load: async () => (await import('./mcp.js')).registerMcp },
  init: { load: async () => (await import('./init.js')).registerInit },
  migrate: { load: async () => (await import('./migrate.js')).registerMigrate, store: true },
  export: { load: async () => (await import('./export.js')).registerExport, store: true },
  import: { load: async () => (await import('./import.js')).registerImport, store: true },
};

/** Runs one command (anything but `--version`) and returns its exit code. */
export async function dispatch(argv: readonly string[], io: Io): Promise<number> {
  const [first, ...rest] = argv;
  const ctx = createContext(io);
  const group = first !== undefined && Object.hasOwn(GROUPS, first) ? GROUPS[first]! : undefined;
  const top = first !== undefined && Object.hasOwn(TOP, first) ? TOP[first]! : undefined;
  if (!group && !top && first !== undefined && !first.startsWith('-')) return usage(ctx, argv, `Unknown command: svc ${first}.${await didYouMean(first, [...Object.keys(GROUPS), ...Object.keys(TOP)], 'svc ')}`, 'svc');
  const cli = cac(group ? `svc ${first}` : 'svc');
  const entries = group ? [group] : top ? [top] : Object.values(TOP);
  if (entries.some((entry) => entry.store)) await loadStore();
  for (const register of await Promise.all(entries.map((entry) => entry.load()))) register(cli, ctx);
  cli.option('-h, --help', 'Show what a command does, the values it accepts and its options');
  try {
    cli.parse(['node', 'svc', ...(group ? toIdArgs(first, rest) : toToolArgs(argv))], { run: false });
    if (cli.options.help) return (io.stdout(formatHelp(cli, group || top ? [] : Object.entries(GROUPS).map(([name, g]) => ({ name, summary: g.summary })))), 0);
    if (!cli.matchedCommand) {
      const names = cli.commands.map((command) => command.name).filter(Boolean);
      return usage(ctx, argv, await toUnknown(first, group ? rest[0] : undefined, names), cli.name);
    }
    await cli.runMatchedCommand();
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof Error && err.name === 'CACError') return usage(ctx, argv, err.message, cli.name);
    return fail(ctx, argv, err instanceof SvcError ? err : toSvcError(err), err);
  }
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

async function toUnknown(first: string | undefined, sub: string | undefined, names: readonly string[]): Promise<string> {
  if (!first) return 'No command given.';
  if (!Object.hasOwn(GROUPS, first)) return `Unknown command: svc ${first}.`;
  if (sub === undefined || sub.startsWith('-')) return `svc ${first} needs a subcommand.`;
  return `Unknown command: svc ${first} ${sub}.${await didYouMean(sub, names, `svc ${first} `)}`;
}

async function didYouMean(word: string, names: readonly string[], prefix: string): Promise<string> {
  return toDidYouMean(word, names, (name) => `\`${prefix}${name}\``);
}

/** A usage error: exit 2, the message and the help hint; with `--json`, the error shape. */
function usage(ctx: Context, argv: readonly string[], message: string, name: string): number {
  const help = `\`${name} --help\` for the commands and options.`;
  if (argv.includes('--json')) ctx.io.stderr(`${JSON.stringify({ ok: false, error: { code: 'validation_error', message, hint: `Run ${help}` } })}\n`);
  else ctx.io.stderr(`svc: ${message}\nhint: run ${help}\n`);
  return 2;
}

function fail(ctx: Context, argv: readonly string[], error: SvcError, err: unknown): number {
  if (argv.includes('--json')) {
    ctx.io.stderr(`${JSON.stringify(error.toJSON())}\n`);
    return 1;
  }
  ctx.io.stderr(`svc: ${error.message}\n`);
  if (error.hint) ctx.io.stderr(`hint: ${error.hint}\n`);
  if (error !== err && process.env.DEBUG) ctx.io.stderr(`${(err as Error).stack ?? ''}\n`);
  return 1;
}

