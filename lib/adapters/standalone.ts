import { SpawnError, type Adapter, type SpawnRequest, type SpawnRun } from '../core/spawn.js';

/** Options of the standalone adapter: where the gateway is, and its token. */
export interface StandaloneAdapterOptions {
  gatewayUrl: () => string | undefined;
  /** The gateway token (from `SVC_GATEWAY_TOKEN` or `data/daemon.env`); never logged or written to tasks. */
  token: () => string | undefined;
  timeoutMs?: number;
}

/** The standalone adapter, with what the daemon needs to end runs. */
export interface StandaloneAdapter extends Adapter {
  /**
   * Cancels the gateway runs of `taskId`, if this adapter spawned it: the gateway tool `subagents`
   * lists the requester's background tasks (each labelled with the svc task id) and cancels those
   * still queued or running. Null when this adapter never spawned the task; else what it did.
   */
  stop(taskId: string): Promise<string> | null;
}

/** Tasks remembered as spawned here, at most (the oldest are forgotten first). */
const SPAWNED_KEPT = 10_000;

/**
 * Dispatches through the agent gateway's HTTP API: `POST {gatewayUrl}/tools/invoke` with the
 * gateway tool `sessions_spawn`. An HTTP error, `ok: false` or a `details.status` of `forbidden` or
 * `error` is a failed dispatch (`Agent not found` -> `agent_unavailable`). The gateway runs the
 * agent on its own; the run's end is seen through the task (completion, or lease expiry).
 */
export function createStandaloneAdapter(options: StandaloneAdapterOptions): StandaloneAdapter {
  const spawned = new Set<string>();
  return {
    kind: 'standalone',
    async spawn(request: SpawnRequest): Promise<SpawnRun> {
      const base = options.gatewayUrl();
      if (!base) throw new SpawnError('no_gateway', 'aof.daemon.gatewayUrl is not set');
      const body = JSON.parse(
        await post(
          base,
          { tool: 'sessions_spawn', args: { agentId: request.agent, task: request.prompt, label: request.taskId } },
          options,
        ),
      ) as unknown;
      assertAccepted(body);
      spawned.delete(request.taskId);
      spawned.add(request.taskId);
      if (spawned.size > SPAWNED_KEPT) spawned.delete(spawned.values().next().value!);
      return {};
    },
    stop(taskId) {
      const base = options.gatewayUrl();
      if (!base || !spawned.delete(taskId)) return null;
      return cancelRuns(base, taskId, options);
    },
  };
}

// --- internal ---

async function cancelRuns(base: string, taskId: string, options: StandaloneAdapterOptions): Promise<string> {
  const listed = JSON.parse(await post(base, { tool: 'subagents', args: { action: 'list' } }, options)) as {
    result?: { details?: { tasks?: { taskId?: string; label?: string; status?: string }[] } };
  };
  const live = (listed.result?.details?.tasks ?? []).filter(
    (task) => task.label === taskId && (task.status === 'running' || task.status === 'queued') && task.taskId,
  );
  const done: string[] = [];
  for (const task of live) {
    const reply = JSON.parse(
      await post(base, { tool: 'subagents', args: { action: 'cancel', taskId: task.taskId } }, options),
    ) as { result?: { details?: { cancelled?: boolean; reason?: string } } };
    const details = reply.result?.details;
    done.push(
      `${task.taskId} ${details?.cancelled ? 'cancelled' : `not cancelled (${details?.reason ?? 'no reason given'})`}`,
    );
  }
  return done.length ? `gateway task ${done.join(', ')}` : 'no gateway run of it was still running';
}

/** Invokes gateway tool `call.tool` with `call.args` at `base`; returns the answer's text. */
async function post(
  base: string,
  call: { tool: string; args: Record<string, unknown> },
  options: StandaloneAdapterOptions,
): Promise<string> {
  const { tool, args } = call;
  const token = options.token();
  let response: Response;
  try {
    response = await fetch(new URL('/tools/invoke', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ tool, args }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch (err) {
    throw new SpawnError('gateway_unreachable', `gateway ${base} did not answer: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const text = await response.text();
  if (!response.ok)
    throw new SpawnError(
      toReason(text, response.status === 401 || response.status === 403 ? 'gateway_unauthorized' : 'gateway_error'),
      `gateway answered HTTP ${response.status}: ${text.slice(0, 300)}`,
    );
  return text || '{}';
}

function assertAccepted(body: unknown): void {
  const reply = (body ?? {}) as {
    ok?: boolean;
    error?: unknown;
    result?: { details?: { status?: string; error?: unknown } };
  };
  const details = reply.result?.details;
  if (reply.ok === false)
    throw new SpawnError(
      toReason(JSON.stringify(reply.error ?? ''), 'gateway_error'),
      `sessions_spawn failed: ${JSON.stringify(reply.error ?? reply)}`,
    );
  if (details?.status === 'forbidden' || details?.status === 'error') {
    const message = JSON.stringify(details.error ?? details);
    throw new SpawnError(
      toReason(message, details.status === 'forbidden' ? 'forbidden' : 'gateway_error'),
      `sessions_spawn ${details.status}: ${message}`,
    );
  }
}

function toReason(text: string, fallback: string): string {
  return /agent not found/i.test(text) ? 'agent_unavailable' : fallback;
}
