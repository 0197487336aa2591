import { join } from 'node:path';
import type { Permission } from '../../org/runtimes.js';
import type { Invocation, InvocationContext } from './runtime.js';

/** The name svc's MCP server has in the CLI's config: its tools are `mcp__svc__<tool>`. */
export const MCP_SERVER = 'svc';

/** Claude Code's name of one of svc's tools (`mcp__svc__svc_task_complete`). */
export function toClaudeToolName(tool: string): string {
  return `mcp__${MCP_SERVER}__${tool}`;
}

/** svc's name of a tool Claude Code names: `mcp__svc__svc_status` is `svc_status`; others keep the CLI's name. */
export function toSvcToolName(name: string): string {
  const prefix = `mcp__${MCP_SERVER}__`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/**
 * `claude -p` with JSONL on stdout (`--output-format stream-json --verbose`), the prompt on stdin, svc's MCP server
 * from a config file in the run's directory and no other MCP server, svc's tools always allowed, the built-in tools
 * as `permissions` says, and nothing that would prompt (a tool not allowed is denied, and the denial is reported).
 */
export function claudeInvocation(context: InvocationContext): Invocation {
  const { agent } = context;
  const mcpConfig = join(context.runDir, 'claude-mcp.json');
  const allowed = [...context.svcTools.map(toClaudeToolName), ...(agent.permissions === 'full' ? FULL_TOOLS : [])];
  const args = [
    ...['-p', '--output-format', 'stream-json', '--verbose'],
    `--mcp-config=${mcpConfig}`,
    '--strict-mcp-config',
    ...['--permission-mode', PERMISSION_MODES[agent.permissions], '--permission-prompts', 'none'],
    `--allowedTools=${allowed.join(',')}`,

    '--include-partial-messages',
    // `--flag=value`: a value that starts with `-` is never read as a flag
    ...(agent.model ? [`--model=${agent.model}`] : []),
    ...(context.resume ? [`--resume=${context.resume}`] : []),
  ];
  const env: Record<string, string> = {
    ...(agent.baseUrl ? { ANTHROPIC_BASE_URL: agent.baseUrl } : {}),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    // svc's tools are offered from the first request, not deferred behind the CLI's tool search
    ENABLE_TOOL_SEARCH: 'false',
  };
  const server = { type: 'stdio', command: context.mcp.command, args: context.mcp.args, env: context.mcp.env };
  const content = `${JSON.stringify({ mcpServers: { [MCP_SERVER]: server } }, null, 2)}\n`;
  return { args, promptOnStdin: true, env, files: [{ path: mcpConfig, content }] };
}

// --- internal ---

/**
 * The built-in tools `full` allows anywhere. The other permissions name none: their modes let reads (and for
 * `acceptEdits` file edits) inside the working directory through, shell commands included, and deny the rest.
 */
const FULL_TOOLS = [
  ...['Read', 'Glob', 'Grep', 'LS', 'TodoWrite', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit'],
  ...['Bash', 'WebFetch', 'WebSearch', 'Task'],
];

/** `dontAsk` denies all but reads; `acceptEdits` also lets file edits in the working directory through. */
const PERMISSION_MODES: Record<Permission, string> = {
  'read-only': 'dontAsk',
  edit: 'acceptEdits',
  full: 'acceptEdits',
};
