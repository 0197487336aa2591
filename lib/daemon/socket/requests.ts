import type { IncomingMessage } from 'node:http';
import * as z from 'zod';
import { SvcError } from '../../core/errors.js';
import { STATUSES, type Status } from '../../core/status.js';
import { fromFilterQuery, type TaskFilter } from '../../store/listing/task-filter.js';
import { assertObject, queryOf } from '../http/exchange.js';
import { HEADERS, ROUTES, toRouteLabel, type HookName } from '../../net/protocol/routes.js';

/** A body each event takes, shown in the hint of a body that is not one. */
export const HOOK_EXAMPLES: Record<HookName, string> = {
  'session-end': '{"sessionKey": "agent:dev:svc-TASK-2026-11-21-001", "reason": "completed", "durationMs": 1200}',
  'agent-end': '{"sessionKey": "agent:dev:svc-TASK-2026-11-21-001", "success": true, "durationMs": 1200}',
  'before-compaction': '{"sessionKey": "agent:dev:svc-TASK-2026-11-21-001", "messageCount": 40, "tokenCount": 90000}',
  'message-received': '{"sessionKey": "agent:dev:svc-TASK-2026-11-21-001", "from": "user", "content": "..."}',
};
export const RESULT_EXAMPLE = '{"ok": true, "sessionKey": "..."} or {"ok": false, "error": "...", "reason": "..."}';

/** The body of `POST /v1/spawns/:id/result`. */
export const ResultBody = z.object({
  ok: z.boolean(),
  sessionKey: z.string().optional(),
  error: z.string().optional(),
  reason: z.string().optional(),
});

/** A body `POST /v1/web` takes, shown in the hint of a body that is not one. */
export const WEB_EXAMPLE = '{"port": 7420}';

/** `status=<one>` or `statuses=<a,b,...>` (the listing of several; an older daemon ignores it and lists all). */
export function toStatusQuery(req: IncomingMessage): Status[] | undefined {
  const query = queryOf(req);
  const value = query.get('status') || query.get('statuses');
  if (value === null || value === '') return undefined;
  const statuses = value.split(',');
  const unknown = statuses.find((status) => !(STATUSES as readonly string[]).includes(status));
  if (unknown === undefined) return statuses as Status[];
  throw new SvcError(
    'validation_error',
    `Unknown status ${JSON.stringify(unknown)}.`,
    `Use one of: ${STATUSES.join(', ')}.`,
  );
}

export function toFilterQuery(req: IncomingMessage): TaskFilter {
  const filter = fromFilterQuery(queryOf(req));
  if (filter.since !== undefined && Number.isNaN(Date.parse(filter.since))) {
    throw new SvcError(
      'validation_error',
      `${toRouteLabel(ROUTES.tasks)} takes since as a time (found ${JSON.stringify(filter.since)}).`,
      `Ask ${toRouteLabel(ROUTES.tasks)}?since=2026-11-23T08:00:00Z.`,
    );
  }
  return filter;
}

export function toWebPort(body: unknown): number | undefined {
  const port = body === undefined ? undefined : assertObject(body, 'The web request', WEB_EXAMPLE).port;
  if (port === undefined || (Number.isInteger(port) && (port as number) >= 0 && (port as number) <= 65535))
    return port as number | undefined;
  throw new SvcError(
    'validation_error',
    `${toRouteLabel(ROUTES.web)} takes port as a whole number from 0 to 65535 (found ${JSON.stringify(port)}).`,
    `Send ${WEB_EXAMPLE}, or {} for any free port.`,
  );
}

export function pluginOf(req: IncomingMessage): string | null {
  const value = req.headers[HEADERS.plugin];
  const id = (Array.isArray(value) ? value[0] : value)?.trim();
  return id && id.length <= 128 ? id : null;
}
