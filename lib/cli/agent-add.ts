import { dirname, relative } from 'node:path';
import type { CAC } from 'cac';
import { checkRuntimeAgents, type RuntimeCheck } from '../adapters/runtimes/probe.js';
import { SvcError } from '../core/errors.js';
import { toDidYouMean } from '../core/suggest.js';
import { toTerminalText } from '../core/text.js';
import { writeDurable, ensureDir } from '../fs/atomic.js';
import { parseYaml } from '../fs/frontmatter.js';
import { withLock } from '../fs/lock/lock.js';
import { appendAgentText, EMPTY_CHART } from '../org/chart-edit.js';
import { readIfExists, toOrgChartFile } from '../org/files.js';
import { validateOrg } from '../org/org-chart.js';
import { asRecord, recordsOf } from '../org/problems.js';
import { RUNTIMES } from '../org/runtimes.js';
import type { OrgChart } from '../org/schema.js';
import { toPaths } from '../store/disk/paths.js';
import type { Context } from './frame/context.js';
import { toText } from './output/format.js';

/** What `svc agent add` wrote, and its CLI's check. */
export interface AgentAdded {
  file: string;
  agent: Record<string, unknown>;
  cli: RuntimeCheck;
}

/** Registers `svc agent add` (docs/command-line.md). */
export function registerAgentAdd(cli: CAC, ctx: Context): void {
  cli
    .command('add <id>', 'Add an agent run by Claude Code, Codex or Gemini CLI to the org chart; checks the CLI')
    .option('--runtime <name>', `The CLI that runs it: ${RUNTIMES.join(', ')}`)
    .option('--model <model>', 'The model, passed to the CLI')
    .option('--team <team>', 'Its team (declared in the org chart)')
    .option('--permissions <level>', 'read-only, edit or full (default edit)')
    .option('--bin <path>', 'The executable (default: claude, codex or gemini on PATH)')
    .option('--base-url <url>', 'A proxy or local model server the CLI talks to')
    .option('--name <name>', 'Its display name (default: the id)')
    .option('--json', 'Print JSON')
    .example('svc agent add coder --runtime claude-code --model claude-sonnet-5')
    .action(async (id: string, opts: Record<string, unknown>) => {
      const added = await addAgent(ctx, toAgent(String(id), opts));
      if (opts.json) return ctx.json(added);
      printAdded(ctx, added);
    });
}

// --- internal ---

/** Tries this many times when another writer changes the org chart between the read and the write. */
const ATTEMPTS = 3;

function toAgent(id: string, opts: Record<string, unknown>): Record<string, unknown> {
  const runtime = toText(opts.runtime);
  if (!runtime)
    throw new SvcError(
      'validation_error',
      `svc agent add ${id} needs --runtime (${RUNTIMES.join(', ')}).`,
      `For example: svc agent add ${id} --runtime claude-code; an agent run by a command of its own is declared ` +
        'in org/org-chart.yaml with `command`.',
    );
  if (!(RUNTIMES as readonly string[]).includes(runtime))
    throw new SvcError(
      'validation_error',
      `Unknown runtime ${JSON.stringify(runtime)} (known: ${RUNTIMES.join(', ')}).${toDidYouMean(runtime, RUNTIMES)}`,
      'Pass --runtime claude-code, codex or gemini.',
    );
  const fields = {
    name: toText(opts.name) ?? id,
    runtime,
    model: toText(opts.model),
    team: toText(opts.team),
    permissions: toText(opts.permissions),
    bin: toText(opts.bin),
    baseUrl: toText(opts.baseUrl),
  };
  return { id, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) };
}

/**
 * Writes the agent into the org chart once the whole chart validates with it, then checks its CLI. Under the lock of
 * svc's writers; a change by another hand between the read and the write (an editor) is read again.
 */
async function addAgent(ctx: Context, agent: Record<string, unknown>): Promise<AgentAdded> {
  const file = toOrgChartFile(ctx.root);
  const lock = toPaths(ctx.root).orgChartLock;
  const org = await withLock(lock, { what: 'the org chart', waitMs: 5000 }, () => writeAgent(file, agent));
  const [cli] = await checkRuntimeAgents(
    org.agents.filter((a) => a.id === agent.id),
    { env: ctx.io.env, cwd: ctx.root },
  );
  return { file, agent, cli: cli! };
}

async function writeAgent(file: string, agent: Record<string, unknown>): Promise<OrgChart> {
  for (let attempt = 1; ; attempt++) {
    const original = await readIfExists(file);
    const text = original ?? EMPTY_CHART;
    assertNew(text, { file, id: String(agent.id) });
    const next = appendAgentText(text, agent, file);
    const org = validateWith(next, { file, id: String(agent.id) });
    // another writer changed the chart since it was read: start again from what it wrote
    if ((await readIfExists(file)) !== original) {
      if (attempt < ATTEMPTS) continue;
      throw new SvcError('busy', `${file} kept changing while agent ${String(agent.id)} was being added.`, {
        hint: 'Run the command again once nothing else is editing the org chart.',
      });
    }
    await ensureDir(dirname(file));
    await writeDurable(file, next);
    return org;
  }
}

/** The chart with the agent, validated whole; its problems name the agent that was not added. */
function validateWith(text: string, { file, id }: { file: string; id: string }) {
  try {
    return validateOrg(parseYaml(text, file), file);
  } catch (err) {
    if (!(err instanceof SvcError) || err.code !== 'validation_error') throw err;
    throw new SvcError(
      'validation_error',
      `Agent ${JSON.stringify(id)} was not added (nothing was written): ${err.message}`,
      {
        hint: 'Fix the options given (or the listed fields of org/org-chart.yaml), then run the command again.',
        cause: err,
      },
    );
  }
}

function assertNew(text: string, { file, id }: { file: string; id: string }): void {
  const agents = recordsOf(asRecord(parseYaml(text, file))?.agents);
  if (!agents.some(([, agent]) => agent.id === id)) return;
  throw new SvcError(
    'validation_error',
    `Agent ${JSON.stringify(id)} is already in the org chart (${file}): nothing was changed.`,
    `Pick another id, or edit its entry in org/org-chart.yaml (svc agent list shows the agents).`,
  );
}

function printAdded(ctx: Context, { file, agent, cli }: AgentAdded): void {
  ctx.print(toTerminalText(`added agent ${String(agent.id)} (${cli.runtime}) to ${relative(ctx.root, file)}`));
  if (!cli.problem) {
    ctx.print(toTerminalText(`${cli.runtime}: ${cli.version} (${cli.path})`));
    return;
  }
  ctx.print(
    toTerminalText(
      `warning: ${cli.problem}: the agent is added, but its runs fail until the CLI answers ` +
        '(svc org validate checks it again)',
    ),
  );
  ctx.print(toTerminalText(`hint: ${cli.hint ?? ''}`));
}
