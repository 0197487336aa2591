import { cac, type CAC } from 'cac';
import { SvcError, toSvcError } from '../core/errors.js';
import { toDidYouMean } from '../core/suggest.js';
import { toTerminalText } from '../core/text.js';
import { createContext, loadStore, type Context, type Io } from './frame/context.js';
import { formatHelp } from './frame/help.js';
import { assertRootExists } from './frame/root-check.js';
import { isUsageError, toUsageError } from './frame/usage.js';

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
  task: {
    summary: 'Create, list, show and move tasks (svc task --help)',
    load: async () =>
      registerAll(
        await Promise.all([
          import('./task/command.js').then((m) => m.registerTask),
          import('./task/bulk.js').then((m) => m.registerTaskBulk),
          import('./task/note.js').then((m) => m.registerTaskNote),
          import('./task/approval.js').then((m) => m.registerTaskApproval),
          import('./task/logs.js').then((m) => m.registerTaskLogs),
          import('./task/tree.js').then((m) => m.registerTaskTree),
          import('./task/workspace.js').then((m) => m.registerTaskWorkspace),
          import('./task/edit.js').then((m) => m.registerTaskEdit),
        ]),
      ),
  },
  daemon: {
    summary: 'Run, start, stop or install the daemon, its status and metrics (svc daemon --help)',
    load: async () =>
      registerAll(
        await Promise.all([
          import('./daemon/command.js').then((m) => m.registerDaemon),
          import('./daemon/metrics.js').then((m) => m.registerDaemonMetrics),
        ]),
      ),
  },
  org: { summary: 'Check the org chart (svc org --help)', load: async () => (await import('./org.js')).registerOrg },
  agent: {
    summary:
      'Add an agent run by Claude Code, Codex or Gemini CLI; list agents; pause or resume one (svc agent --help)',
    load: async () => (await import('./agent.js')).registerAgent,
    store: true,
  },
  workspace: {
    summary: 'The worktrees and branches svc made: list, prune (svc workspace --help)',
    load: async () => (await import('./workspace.js')).registerWorkspace,
    store: true,
  },
  notify: {
    summary: 'The notifications of aof.notify: list the outbox, retry, send a test (svc notify --help)',
    load: async () => (await import('./notify/command.js')).registerNotify,
  },
  scheduler: {
    summary: 'One scheduler tick, or its plan (svc scheduler --help)',
    load: async () => (await import('./scheduler.js')).registerScheduler,
    store: true,
  },
};

/** `svc <command>`: top-level commands. */
const TOP: Record<string, Entry> = {
  board: { load: async () => (await import('./board/command.js')).registerBoard },
  web: { load: async () => (await import('./daemon/web.js')).registerWeb },
  tool: { load: async () => (await import('./tool.js')).registerTool },
  events: { load: async () => (await import('./events.js')).registerEvents },
  usage: { load: async () => (await import('./usage.js')).registerUsage },
  doctor: { load: async () => (await import('./doctor.js')).registerDoctor, store: true },
  quickstart: { load: async () => (await import('./init/quickstart.js')).registerQuickstart, store: true },
  mcp: { load: async () => (await import('./mcp.js')).registerMcp },
  init: { load: async () => (await import('./init/command.js')).registerInit },
  archive: { load: async () => (await import('./archive.js')).registerArchive },
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
  if (!group && !top && first !== undefined && !first.startsWith('-'))
    return usage(ctx, argv, {
      message:
        `Unknown command: svc ` +
        `${first}.${await didYouMean(first, [...Object.keys(GROUPS), ...Object.keys(TOP)], 'svc ')}`,
      name: 'svc',
    });
  const cli = cac(group ? `svc ${first}` : 'svc');
  const entries = group ? [group] : top ? [top] : Object.values(TOP);
  if (entries.some((entry) => entry.store)) await loadStore();
  for (const register of await Promise.all(entries.map((entry) => entry.load()))) register(cli, ctx);
  cli.option('-h, --help', 'Show what a command does, the values it accepts and its options');
  if (first === 'task' || first === 'tool')
    cli.option(
      '--request-id <id>',
      'Send a change under this id: rerun a command that timed out with ' +
        'the id it printed, to get its outcome without applying it twice',
    );
  try {
    cli.parse(['node', 'svc', ...(group ? toIdArgs(first, toIdOptions(rest)) : toToolArgs(toIdOptions(argv)))], {
      run: false,
    });
    if (cli.options.requestId !== undefined) ctx.requestId = String(cli.options.requestId);
    // A bare `svc` asks what there is: the help, as `--help` prints it.
    if (cli.options.help || argv.length === 0) {
      io.stdout(
        formatHelp(cli, group || top ? [] : Object.entries(GROUPS).map(([name, g]) => ({ name, summary: g.summary }))),
      );
      return 0;
    }
    // What follows `--` is positional (`svc task create -- "-x"`), not an option.
    const afterDashes = (cli.options['--'] ?? []) as string[];
    if (cli.matchedCommand && afterDashes.length > 0)
      Object.assign(cli, { args: [...cli.args, ...afterDashes], options: { ...cli.options, '--': [] } });
    if (!cli.matchedCommand) {
      const names = cli.commands.map((command) => command.name).filter(Boolean);
      return usage(ctx, argv, { message: await toUnknown(first, group ? rest[0] : undefined, names), name: cli.name });
    }
    assertRootExists(ctx.root, { group: first ?? '', command: group ? cli.matchedCommand.name : '', args: cli.args });
    await cli.runMatchedCommand();
    if (ctx.replayed?.length) io.stderr(`${toReplayNote(ctx.replayed)}\n`);
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof Error && err.name === 'CACError')
      return usage(ctx, argv, { message: err.message, name: cli.name });
    if (isUsageError(err)) return usage(ctx, argv, { message: err.message, name: cli.name, hint: err.hint });
    return fail(ctx, argv, err);
  }
}

// --- internal ---

/** What a rerun with `--request-id` says when the answer is the first call's, sent again. */
function toReplayNote(ids: readonly string[]): string {
  const which = ids.length === 1 ? `request ${ids[0]} was` : `requests ${ids.join(', ')} were`;
  return `note: a replay: ${which} already done, and this is the first answer again; nothing was done now.`;
}

/** Several modules' commands as one registration. */
function registerAll(registers: readonly Register[]): Register {
  return (cli, ctx) => registers.forEach((register) => register(cli, ctx));
}

/**
 * `svc task show -007`, `svc task promote -9 -10`: a bare sequence written with its dash, after the
 * subcommand or another id, is an id argument, not an option; so is the word after `--` (`svc task
 * show -- -007`), and a word there that cannot be an id is a usage error that says so.
 */
function toIdArgs(group: string | undefined, args: readonly string[]): string[] {
  const [sub, ...more] = args;
  if (group !== 'task' || sub === undefined || sub === 'create') return [...args];
  if (more[0] === '--' && more[1]?.startsWith('-') && !/^-\d+$/.test(more[1])) {
    throw toUsageError(
      new SvcError(
        'validation_error',
        `${JSON.stringify(more[1])} is not a task id: an id is a full id ` +
          `(TASK-2026-11-21-007), a unique prefix of one, or a sequence such as 7, 007 or -007.`,
        `List the ids with \`svc task list\`, then run svc task ${sub} <id>.`,
      ),
    );
  }
  const out = [sub];
  let positional = true;
  for (const arg of more) {
    if (arg === '--') return [...out, ...more.slice(out.length - 1)];
    const dashed: boolean = positional && /^-\d+$/.test(arg);
    out.push(dashed ? arg.slice(1) : arg);
    positional = dashed || !arg.startsWith('-');
  }
  return out;
}

/** Options whose value is an id, or a comma-separated list of ids. */
const ID_OPTIONS = ['--task', '--parent', '--depends-on'];

/** `svc events --task -013`, `--parent -7`: a bare sequence with its dash is the option's value, not another option. */
function toIdOptions(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (ID_OPTIONS.includes(argv[i]!) && next !== undefined && /^-\d+(,\S*)?$/.test(next))
      out.push(`${argv[i]}=${argv[++i]}`);
    else out.push(argv[i]!);
  }
  return out;
}

/** `svc tool <name> -`: the argument parser drops a lone `-`, so it becomes `--stdin` before parsing. */
function toToolArgs(argv: readonly string[]): string[] {
  const [command, name, params, ...more] = argv;
  if (command !== 'tool' || params !== '-') return [...argv];
  return [command, name!, '--stdin', ...more];
}

async function toUnknown(
  first: string | undefined,
  sub: string | undefined,
  names: readonly string[],
): Promise<string> {
  if (!first) return 'No command given.';
  if (!Object.hasOwn(GROUPS, first)) return `Unknown command: svc ${first}.`;
  if (sub === undefined || sub.startsWith('-')) return `svc ${first} needs a subcommand.`;
  return `Unknown command: svc ${first} ${sub}.${await didYouMean(sub, names, `svc ${first} `)}`;
}

async function didYouMean(word: string, names: readonly string[], prefix: string): Promise<string> {
  return toDidYouMean(word, names, (name) => `\`${prefix}${name}\``);
}

/** A usage error: exit 2, the message and its hint (else the help hint of `name`); with `--json`, the error shape. */
function usage(
  ctx: Context,
  argv: readonly string[],
  { message, name, hint }: { message: string; name: string; hint?: string },
): number {
  const help = `\`${name} --help\` for the commands and options.`;
  if (argv.includes('--json'))
    ctx.io.stderr(
      `${JSON.stringify({ ok: false, error: { code: 'validation_error', message, hint: hint ?? `Run ${help}` } })}\n`,
    );
  else ctx.io.stderr(`svc: ${message}\nhint: ${hint ?? `run ${help}`}\n`);
  return 2;
}

function fail(ctx: Context, argv: readonly string[], err: unknown): number {
  const error = err instanceof SvcError ? err : toSvcError(err);
  if (argv.includes('--json')) {
    ctx.io.stderr(`${JSON.stringify(error.toJSON())}\n`);
    return 1;
  }
  // A message may quote a file (a config value, an id): its control characters are shown escaped.
  ctx.io.stderr(`svc: ${toTerminalText(error.message, { multiline: true })}\n`);
  if (error.hint) ctx.io.stderr(`hint: ${toTerminalText(error.hint, { multiline: true })}\n`);
  if (error !== err && process.env.DEBUG) ctx.io.stderr(`${(err as Error).stack ?? ''}\n`);
  return 1;
}
