import { readFileSync } from 'node:fs';
import type { CAC } from 'cac';
import { SvcError } from '../core/errors.js';
import { toDidYouMean } from '../core/suggest.js';
import { APPROVAL_TOOL_NAMES, TOOL_NAMES } from '../tools/names.js';
import type { Context } from './frame/context.js';
import { operateWith } from './frame/operate.js';
import { loadTool } from './frame/tool-modules.js';

/** Registers `svc tool <name> [params]`: invokes an svc_* tool and prints its result as JSON. */
export function registerTool(cli: CAC, ctx: Context): void {
  const shown = toShownTools(ctx.io.env);
  const approvals = shown.length > TOOL_NAMES.length ? ' (the approval tools: docs/approvals-and-logs.md)' : '';
  cli
    .command(
      'tool <name> [params]',
      `Invoke an svc_* tool; params is a JSON object, or - to read it ` +
        `from stdin\nThrough the daemon's socket when one runs, else ` +
        `in this process on the files. <name> is one of: ${shown.join(', ')}. ` +
        `Their parameters: docs/agent-tools.md${approvals}.`,
    )
    .option('--stdin', 'Read the params from stdin (what `-` means)')
    .example('svc tool svc_task_complete \'{"taskId":"TASK-2026-11-21-001","summary":"done"}\'')
    .example('echo \'{"status":"ready"}\' | svc tool svc_status -')
    .action(async (name: string, params: string | undefined, opts: { stdin?: boolean }) => {
      assertToolName(String(name), shown);
      const text = opts.stdin ? readFileSync(0, 'utf8') : (params ?? '{}');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw new SvcError(
          'validation_error',
          `params is not JSON: ${(err as Error).message}`,
          await toParamsHint(String(name)),
        );
      }
      ctx.json(
        await operateWith(ctx, { tool: String(name), params: parsed as Record<string, unknown> }, () =>
          loadTool(String(name)),
        ),
      );
    });
}

// --- internal ---

/** The hint of params that are not JSON: the tool's required parameters, quoted for a POSIX shell. */
async function toParamsHint(name: string): Promise<string> {
  const [[tool], { toRequiredExample }] = await Promise.all([loadTool(name), import('../tools/example.js')]);
  const example = JSON.stringify(tool ? toRequiredExample(tool) : {}).replaceAll("'", "'\\''");
  const needs = example === '{}' ? `${name} requires none` : `the parameters ${name} requires`;
  return (
    `Pass a JSON object in single quotes, e.g. svc tool ${name} ` +
    `'${example}' (${needs}; the optional ones: docs/agent-tools.md).`
  );
}

/** The agent tools and the approval tools: what `svc tool` calls. */
const KNOWN: readonly string[] = [...TOOL_NAMES, ...APPROVAL_TOOL_NAMES];

/** The tools `svc tool` names in its help and hints: to an agent run (`SVC_SESSION_ID` set), the agent tools alone. */
function toShownTools(env: Record<string, string | undefined>): readonly string[] {
  return env.SVC_SESSION_ID ? TOOL_NAMES : KNOWN;
}

/** An approval tool called by a run is sent on: the daemon refuses it with the reason (an agent does not decide). */
function assertToolName(name: string, shown: readonly string[]): void {
  if (KNOWN.includes(name)) return;
  throw new SvcError(
    'unknown_tool',
    `Unknown tool ${JSON.stringify(name)}.${toDidYouMean(name, shown)}`,
    `Known tools: ${shown.join(', ')}.`,
  );
}
