// How svc starts Gemini CLI for one run (docs/agent-runtimes.md, "Gemini CLI"): headless, JSONL on stdout, the
// prompt on stdin, a settings file and a policy file of the run's own, never the user's ~/.gemini files.
import { join } from 'node:path';
import type { Permission } from '../../org/runtimes.js';
import type { Invocation, InvocationContext } from './runtime.js';

/** The MCP server name svc's tools are offered under (the CLI calls them `mcp_svc_<tool>`). */
export const GEMINI_MCP_SERVER = 'svc';

/** The CLI's approval mode for each of svc's permissions. */
export const GEMINI_APPROVAL_MODES: Readonly<Record<Permission, string>> = {
  'read-only': 'default',
  edit: 'auto_edit',
  full: 'yolo',
};

/**
 * The CLI's home (`GEMINI_CLI_HOME`) in the agent's directory for the task: its settings, and the sessions it keeps
 * (`.gemini/tmp`), found again by the agent's later runs.
 */
export function geminiHomeOf(stateDir: string): string {
  return join(stateDir, 'gemini-home');
}

/** The command line, environment and files of one headless Gemini CLI run. */
export function geminiInvocation(context: InvocationContext): Invocation {
  const home = geminiHomeOf(context.stateDir);
  const settingsPath = join(home, '.gemini', 'settings.json');
  const policyPath = join(context.runDir, 'gemini-policy.toml');
  const args = [
    '--output-format',
    'stream-json',
    '--approval-mode',
    GEMINI_APPROVAL_MODES[context.agent.permissions],
    '--policy',
    policyPath,
    '--allowed-mcp-server-names',
    GEMINI_MCP_SERVER,
    '--skip-trust',
  ];
  if (context.agent.model) args.push('--model', context.agent.model);
  if (context.resume) args.push('--resume', context.resume);
  const env: Record<string, string> = { GEMINI_CLI_HOME: home };
  if (context.agent.baseUrl) env.GOOGLE_GEMINI_BASE_URL = context.agent.baseUrl;
  return {
    args,
    promptOnStdin: true,
    env,
    files: [
      { path: settingsPath, content: `${JSON.stringify(settingsOf(context), null, 2)}\n` },
      { path: policyPath, content: policyOf(context.svcTools) },
    ],
  };
}

// --- internal ---

/**
 * The run's settings (the user's own ~/.gemini is left alone): svc's MCP server, the auth, and no telemetry, usage
 * statistics, update checks or folder-trust prompt.
 */
function settingsOf(context: InvocationContext): unknown {
  return {
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    security: { ...authOf(context), folderTrust: { enabled: false } },
    mcpServers: {
      [GEMINI_MCP_SERVER]: {
        command: context.mcp.command,
        args: context.mcp.args,
        env: context.mcp.env,
        includeTools: [...context.svcTools],
      },
    },
  };
}

/**
 * With a base URL the CLI would take its auth for a gateway's and refuse it: the API key is named. Without one, the
 * environment chooses (`GEMINI_API_KEY`, or Vertex AI's variables).
 */
function authOf(context: InvocationContext): { auth?: { selectedType: string } } {
  const gateway = context.agent.baseUrl ?? context.agent.env?.GOOGLE_GEMINI_BASE_URL;
  return gateway ? { auth: { selectedType: 'gemini-api-key' } } : {};
}

/** svc's own tools allowed whatever the approval mode (the others follow the CLI's rules for that mode). */
function policyOf(svcTools: readonly string[]): string {
  return [
    '[[rule]]',
    `mcpName = ${JSON.stringify(GEMINI_MCP_SERVER)}`,
    `toolName = [${svcTools.map((tool) => JSON.stringify(tool)).join(', ')}]`,
    'decision = "allow"',
    'priority = 900',
    '',
  ].join('\n');
}
