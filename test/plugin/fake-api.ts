// A fake OpenClaw plugin API: records what `register(api)` registers, and a subagent runtime whose
// runs are scripted by the test (by default the "agent" completes its task through the svc tool).
import type {
  AgentTool,
  AgentWaitResult,
  ForwardedHook,
  HookContext,
  PluginApi,
  PluginService,
  RegistrationMode,
  SubagentRunParams,
  ToolFactory,
} from '../../lib/plugin/api.js';

/** What a scripted run does; its result is what `waitForRun` reports. */
export type RunScript = (params: SubagentRunParams, api: FakeApi) => Promise<AgentWaitResult>;

/** The fake API and what was registered on it. */
export interface FakeApi extends PluginApi {
  tools: Array<{ factory: ToolFactory; name?: string }>;
  hooks: Array<{
    name: ForwardedHook;
    handler: (event: Record<string, unknown>, ctx: HookContext) => void | Promise<void>;
  }>;
  services: PluginService[];
  logs: string[];
  runs: SubagentRunParams[];
  /** Session keys deleted through `subagent.deleteSession` (which aborts their active run), in order. */
  deleted: string[];
  /** Runs going on now (started, not ended or aborted). */
  active: Set<string>;
  /** The tool `name` as the gateway would build it for a run of `agentId` in `sessionKey`. */
  tool(name: string, ctx?: HookContext): AgentTool;
  /** Fires a hook the way the gateway would; returns what the handler returned. */
  fire(name: ForwardedHook, event: Record<string, unknown>, ctx?: HookContext): unknown;
}

/** Completes the task named in the prompt with svc_task_complete, as the spawned agent. */
export const completeThroughTool: RunScript = async (params, api) => {
  const taskId = /task (TASK-[\w-]+)/.exec(params.message)?.[1];
  const sessionId = /sessionId: "([^"]+)"/.exec(params.message)?.[1];
  const agentId = params.sessionKey.split(':')[1];
  await api
    .tool('svc_task_complete', { agentId, sessionKey: params.sessionKey })
    .execute('call-1', { taskId, sessionId, summary: 'done in the gateway' });
  return { status: 'ok' };
};

/** Builds a fake API for one `register` call. */
export function fakeApi(
  options: { mode?: RegistrationMode; config?: Record<string, unknown>; script?: RunScript } = {},
): FakeApi {
  const script = options.script ?? completeThroughTool;
  const finished = new Map<string, Promise<AgentWaitResult>>();
  const aborts = new Map<string, () => void>(); // session key -> abort of its latest run
  let runs = 0;
  const api: FakeApi = {
    id: 'svc',
    registrationMode: options.mode ?? 'full',
    ...(options.config ? { pluginConfig: options.config } : {}),
    tools: [],
    hooks: [],
    services: [],
    logs: [],
    runs: [],
    deleted: [],
    active: new Set(),
    logger: {
      info: (m) => void api.logs.push(`info ${m}`),
      warn: (m) => void api.logs.push(`warn ${m}`),
      error: (m) => void api.logs.push(`error ${m}`),
    },
    runtime: {
      subagent: {
        async run(params) {
          api.runs.push(params);
          const runId = params.idempotencyKey ?? `run-${++runs}`; // the gateway names a run by its idempotency key
          const aborted = new Promise<AgentWaitResult>((resolve) =>
            aborts.set(params.sessionKey, () => resolve({ status: 'error', error: 'aborted' })),
          );
          api.active.add(runId);
          const result = Promise.race([
            script(params, api).catch((err: unknown) => ({ status: 'error' as const, error: String(err) })),
            aborted,
          ]);
          finished.set(
            runId,
            result.finally(() => api.active.delete(runId)),
          );
          return { runId, sessionKey: params.sessionKey };
        },
        async deleteSession({ sessionKey }) {
          api.deleted.push(sessionKey);
          aborts.get(sessionKey)?.();
        },
        async waitForRun({ runId, timeoutMs }) {
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<AgentWaitResult>(
            (resolve) => (timer = setTimeout(() => resolve({ status: 'timeout' }), timeoutMs ?? 30_000)),
          );
          try {
            return await Promise.race([finished.get(runId)!, timeout]);
          } finally {
            clearTimeout(timer);
          }
        },
      },
    },
    registerTool: (factory, opts) => void api.tools.push({ factory, ...(opts?.name ? { name: opts.name } : {}) }),
    registerService: (service) => void api.services.push(service),
    on: (name, handler) => void api.hooks.push({ name, handler }),
    tool(name, ctx = {}) {
      const entry = api.tools.find((t) => t.name === name);
      const tool = entry?.factory(ctx);
      if (!tool) throw new Error(`no tool ${name} registered`);
      return tool;
    },
    fire(name, event, ctx = {}) {
      const hook = api.hooks.find((h) => h.name === name);
      if (!hook) throw new Error(`no hook ${name} registered`);
      return hook.handler(event, ctx);
    },
  };
  return api;
}
