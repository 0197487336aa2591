import { SpawnError, type Adapter, type SpawnRequest, type SpawnRun } from '../core/spawn.js';

/** Options of the standalone adapter: where the gateway is, and its token. */
export interface StandaloneAdapterOptions {
  gatewayUrl: () => string | undefined;
  /** The gateway token (from `SVC_GATEWAY_TOKEN` or `data/daemon.env`); never logged or written to tasks. */
  token: () => string | undefined;
  timeoutMs?: number;
}

/**
 * Dispatches through the agent gateway's HTTP API: `POST {gatewayUrl}/tools/invoke` with the
 * gateway tool `sessions_spawn`. An HTTP error, `ok: false` or a `details.status` of `forbidden` or
 * `error` is a failed dispatch (`Agent not found` -> `agent_unavailable`). The gateway runs the
 * agent on its own; the run's end is seen through the task (completion, or lease expiry).
 */
export function createStandaloneAdapter(options: StandaloneAdapterOptions): Adapter {
  return {
    kind: 'standalone',
    async spawn(request: SpawnRequest): Promise<SpawnRun> {
      const base = options.gatewayUrl();
      if (!base) throw new SpawnError('no_gateway', 'aof.daemon.gatewayUrl is not set');
      const body = JSON.parse(await post(base, request, options)) as unknown;
      assertAccepted(body);
      return {};
    },
  };
}

// --- internal ---

async function post(base: string, request: SpawnRequest, options: StandaloneAdapterOptions): Promise<string> {
  const token = options.token();
  let response: Response;
  try {
    response = await fetch(new URL('/tools/invoke', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ tool: 'sessions_spawn', args: { agentId: request.agent, task: request.prompt, label: request.taskId } }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch (err) {
    throw new SpawnError('gateway_unreachable', `gateway ${base} did not answer: ${(err as Error).message}`, { cause: err });
  }
  const text = await response.text();
  if (!response.ok) throw new SpawnError(toReason(text, response.status === 401 || response.status === 403 ? 'gateway_unauthorized' : 'gateway_error'), `gateway answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  return text || '{}';
}

function assertAccepted(body: unknown): void {
  const reply = (body ?? {}) as { ok?: boolean; error?: unknown; result?: { details?: { status?: string; error?: unknown } } };
  const details = reply.result?.details;
  if (reply.ok === false) throw new SpawnError(toReason(JSON.stringify(reply.error ?? ''), 'gateway_error'), `sessions_spawn failed: ${JSON.stringify(reply.error ?? reply)}`);
  if (details?.status === 'forbidden' || details?.status === 'error') {
    const message = JSON.stringify(details.error ?? details);
    throw new SpawnError(toReason(message, details.status === 'forbidden' ? 'forbidden' : 'gateway_error'), `sessions_spawn ${details.status}: ${message}`);
  }
}

function toReason(text: string, fallback: string): string {
  return /agent not found/i.test(text) ? 'agent_unavailable' : fallback;
}
