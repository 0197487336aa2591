import { FORWARDED_HOOKS, type ForwardedHook, type HookContext, type PluginApi, type PluginLogger } from './api.js';
import { toSpawnId } from './runs.js';
import { requestSocket } from './socket.js';
import { eventPath, HEADERS, ROUTES } from '../net/protocol/routes.js';
import { describeError } from '../core/errors.js';

/** The daemon route of each forwarded hook. */
export const HOOK_ROUTES: Record<ForwardedHook, string> = {
  session_end: eventPath('session-end'),
  agent_end: eventPath('agent-end'),
  before_compaction: eventPath('before-compaction'),
  message_received: eventPath('message-received'),
};

/** Options of `registerHooks`. */
export interface HookOptions {
  socket: () => string;
  logger: PluginLogger;
  /** The plugin id sent as `x-svc-plugin` (the daemon logs events under it). */
  pluginId: string;
  /** Called with every forward once it settled, `ok` when the daemon took it (tests wait on it). */
  onForwarded?: (hook: ForwardedHook, forward: { ok: boolean }) => void;
}

/**
 * Forwards the lifecycle hooks to the daemon's `/v1/event/*`, fire and forget: the handler returns
 * at once and a failed post is logged (once per outage), never thrown at the gateway.
 */
export function registerHooks(api: Pick<PluginApi, 'on'>, options: HookOptions): void {
  let failing = false;
  for (const hook of FORWARDED_HOOKS) {
    api.on(hook, (event, ctx) => {
      const payload = toEventPayload(hook, event ?? {}, ctx ?? {});
      void requestSocket(
        options.socket(),
        { method: ROUTES.event.method, path: HOOK_ROUTES[hook], body: payload },
        { headers: { [HEADERS.plugin]: options.pluginId }, timeoutMs: 10_000 },
      ).then(
        (res) => {
          const ok = res.status === 202;
          if (ok) failing = false;
          else options.logger.warn(`svc: the daemon refused the ${hook} event (HTTP ${res.status}).`);
          options.onForwarded?.(hook, { ok });
        },
        (err: unknown) => {
          if (!failing) options.logger.warn(`svc: could not forward the ${hook} event: ${describeError(err)}`);
          failing = true;
          options.onForwarded?.(hook, { ok: false });
        },
      );
    });
  }
}

/**
 * The payload sent for a hook: the session key at the top (`sessionKey`, which ends an svc run
 * whose session it names), the context's ids, `spawnId` when the run is one the plugin started,
 * and the event's small fields. Conversation transcripts (`messages`) are left out; message text
 * is cut at 2,000 characters.
 */
export function toEventPayload(
  hook: ForwardedHook,
  event: Record<string, unknown>,
  ctx: HookContext,
): Record<string, unknown> {
  const sessionKey = stringOf(event.sessionKey) ?? stringOf(ctx.sessionKey);
  const runId = stringOf(event.runId) ?? ctx.runId;
  const base = compact({
    sessionKey,
    agentId: ctx.agentId,
    sessionId: stringOf(event.sessionId) ?? ctx.sessionId,
    runId,
    spawnId: toSpawnId(runId),
  });
  return {
    ...base,
    ...compact(pick(event, FIELDS[hook])),
    ...(hook === 'message_received' ? compact({ channelId: ctx.channelId, content: clip(event.content) }) : {}),
  };
}

// --- internal ---

const FIELDS: Record<ForwardedHook, readonly string[]> = {
  session_end: ['messageCount', 'durationMs', 'reason', 'nextSessionId', 'nextSessionKey'],
  agent_end: ['success', 'error', 'durationMs'],
  before_compaction: ['messageCount', 'compactingCount', 'tokenCount'],
  message_received: ['from', 'timestamp', 'messageId', 'senderId', 'threadId'],
};

const MAX_TEXT = 2000;

function pick(event: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => isScalar(event[key])).map((key) => [key, event[key]]));
}

function compact(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).filter(([, value]) => value !== undefined && value !== null && value !== ''),
  );
}

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

function clip(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
}
