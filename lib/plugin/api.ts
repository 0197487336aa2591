// The parts of the OpenClaw plugin API (2026.9) that the svc plugin uses, typed here so svc does
// not depend on the openclaw package (it needs Node 24; svc runs on Node 20).

/** How the gateway loaded the plugin; only `full` starts services. */
export type RegistrationMode =
  | 'full'
  | 'discovery'
  | 'tool-discovery'
  | 'setup-only'
  | 'setup-runtime'
  | 'cli-metadata';

/** The gateway's logger for this plugin. */
export interface PluginLogger {
  debug?: (message: string) => void;
  info: (message: string) => void;
  warn: (message: string) => void;
  error: (message: string) => void;
}

/** What a tool factory learns about the calling agent run. */
export interface ToolContext {
  agentId?: string;
  sessionKey?: string;
  sessionId?: string;
}

/** A tool result: text for the model, structured `details` for the gateway. */
export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  details: unknown;
}

/** A concrete agent tool; `execute` takes the tool call id first and throws on failure. */
export interface AgentTool {
  name: string;
  label: string;
  description: string;
  parameters: Record<string, unknown>;
  /** `direct-only` keeps the tool model-visible when the gateway compacts tools behind Tool Search or Code Mode. */
  catalogMode?: 'direct-only';
  execute: (toolCallId: string, params: unknown, signal?: AbortSignal) => Promise<ToolResult>;
}

/** `api.registerTool` in the factory form: the gateway builds the tool per run with its context. */
export type ToolFactory = (ctx: ToolContext) => AgentTool | null | undefined;

/** A long-lived background service (`api.registerService`). */
export interface PluginService {
  id: string;
  start: (ctx: { logger?: PluginLogger }) => void | Promise<void>;
  stop?: (ctx: { logger?: PluginLogger }) => void | Promise<void>;
}

/** `api.runtime.subagent.run` parameters (the ones svc sets). */
export interface SubagentRunParams {
  sessionKey: string;
  message: string;
  deliver?: boolean;
  idempotencyKey?: string;
  toolsAlsoAllow?: string[];
}

/** `api.runtime.subagent.waitForRun`'s answer; `pending` and `timeout` mean the wait ended, not the run. */
export interface AgentWaitResult {
  status: 'ok' | 'error' | 'timeout' | 'pending';
  error?: string;
  timeoutPhase?: string;
  /** The wait call itself failed (the run may go on): wait again. */
  retryableTransportError?: boolean;
}

/** The subagent runtime: starts a gateway session run and waits for it. */
export interface SubagentRuntime {
  run: (params: SubagentRunParams) => Promise<{ runId: string; sessionKey?: string }>;
  waitForRun: (params: { runId: string; timeoutMs?: number }) => Promise<AgentWaitResult>;
  /**
   * Deletes a session (its entry; the transcript too unless `deleteTranscript: false`), aborting its active run first.
   */
  deleteSession?: (params: { sessionKey: string; deleteTranscript?: boolean }) => Promise<void>;
}

/** The hooks svc forwards to the daemon. */
export const FORWARDED_HOOKS = ['session_end', 'agent_end', 'before_compaction', 'message_received'] as const;
/** One of `FORWARDED_HOOKS`. */
export type ForwardedHook = (typeof FORWARDED_HOOKS)[number];

/** The hook context: which agent and session the event belongs to (fields vary by hook). */
export interface HookContext {
  agentId?: string;
  sessionKey?: string;
  sessionId?: string;
  runId?: string;
  channelId?: string;
}

/** The registration API handed to `register(api)`. */
export interface PluginApi {
  id: string;
  registrationMode: RegistrationMode;
  pluginConfig?: Record<string, unknown>;
  logger: PluginLogger;
  runtime: { subagent: SubagentRuntime };
  registerTool: (factory: ToolFactory, opts?: { name?: string; names?: string[]; optional?: boolean }) => void;
  registerService: (service: PluginService) => void;
  on: (
    hookName: ForwardedHook,
    handler: (event: Record<string, unknown>, ctx: HookContext) => void | Promise<void>,
  ) => void;
}
