// Codex (`codex exec --json`): every setting of a run is a `-c key=value` override (TOML values), so the user's own
// `$CODEX_HOME/config.toml` and login are read but never written. svc's MCP server gets its environment through
// `env_vars` (names passed on from the run's environment), not on the command line where `ps` would show it.
import type { Permission } from '../../org/runtimes.js';
import { codexBaseline, codexHome, findCodexRollout } from './codex-sessions.js';
import { codexParser, type CodexTokens } from './codex-stream.js';
import type { Invocation, InvocationContext, Runtime } from './runtime.js';

/** The codex runtime (docs/agent-runtimes.md). */
export const codex: Runtime = {
  name: 'codex',
  defaultBin: 'codex',
  invocation: codexInvocation,
  parser: (run) =>
    codexParser(
      run?.before !== undefined
        ? (run.before as CodexTokens)
        : run?.resume
          ? codexBaseline(codexHome(run), run.resume)
          : {},
    ),
  before: (run) => codexBaseline(codexHome(run), run.resume),
  hasSession: (where, id) => findCodexRollout(codexHome(where), id) !== null,
};

/** The name of the model provider svc defines when the agent names a `baseUrl`. */
export const CODEX_PROVIDER = 'svc_base_url';

/** `codex exec [resume] --json ... [<session>] -`: the prompt on stdin, every setting a `-c` override. */
export function codexInvocation(context: InvocationContext): Invocation {
  const { agent, mcp, resume } = context;
  const settings: [string, string][] = [
    ...QUIET,
    ...PERMISSIONS[agent.permissions],
    ['mcp_servers.svc.command', toml(mcp.command)],
    ['mcp_servers.svc.args', toml(mcp.args)],
    ['mcp_servers.svc.env_vars', toml(Object.keys(mcp.env))],
    ['mcp_servers.svc.enabled_tools', toml(context.svcTools)],
    ['mcp_servers.svc.default_tools_approval_mode', toml('approve')],
    ['mcp_servers.svc.required', 'true'],
  ];
  if (agent.model) settings.push(['model', toml(agent.model)]);
  if (agent.baseUrl) settings.push(...provider(agent.baseUrl, agent.env));
  const args = ['exec', ...(resume ? ['resume'] : []), '--json', '--skip-git-repo-check'];
  for (const [key, value] of settings) args.push('-c', `${key}=${value}`);
  args.push('--', ...(resume ? [resume] : []), '-');
  return { args, promptOnStdin: true, env: { ...mcp.env }, files: [] };
}

// --- internal ---

/** Telemetry, update checks, plugins and apps off: no traffic but the model's. */
const QUIET: [string, string][] = [
  ['analytics.enabled', 'false'],
  ['feedback.enabled', 'false'],
  ['check_for_update_on_startup', 'false'],
  ['features.plugins', 'false'],
  ['features.remote_plugin', 'false'],
  ['features.apps', 'false'],
  ['features.shell_snapshot', 'false'],
  ['web_search', toml('disabled')],
];

const PERMISSIONS: Record<Permission, [string, string][]> = {
  'read-only': [
    ['approval_policy', toml('never')],
    ['sandbox_mode', toml('read-only')],
  ],
  edit: [
    ['approval_policy', toml('never')],
    ['sandbox_mode', toml('workspace-write')],
  ],
  full: [
    ['approval_policy', toml('never')],
    ['sandbox_mode', toml('danger-full-access')],
  ],
};

/** A provider at the agent's base URL speaking the Responses API; the API key from `OPENAI_API_KEY` when set. */
function provider(baseUrl: string, env: Record<string, string> | undefined): [string, string][] {
  const at = `model_providers.${CODEX_PROVIDER}`;
  return [
    ['model_provider', toml(CODEX_PROVIDER)],
    [`${at}.name`, toml('svc')],
    [`${at}.base_url`, toml(baseUrl)],
    [`${at}.wire_api`, toml('responses')],
    ...(env?.OPENAI_API_KEY ? [[`${at}.env_key`, toml('OPENAI_API_KEY')] as [string, string]] : []),
  ];
}

/** A TOML value: a string or an array of strings (JSON's escapes are TOML's, bar DEL). */
function toml(value: string | readonly string[]): string {
  if (typeof value !== 'string') return `[${value.map((v) => toml(v)).join(', ')}]`;
  return JSON.stringify(value).replace(/\u007f/g, '\\u007f');
}
