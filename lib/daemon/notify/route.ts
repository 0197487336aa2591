import type { IncomingMessage, ServerResponse } from 'node:http';
import { SvcError } from '../../core/errors.js';
import { NOTIFY_ACTIONS, ROUTES, toRouteLabel } from '../../net/protocol/routes.js';
import type { NotifyRetryResponse, NotifyTestResponse } from '../../net/protocol/notify.js';
import { assertObject, readJson, sendJson, type Handler } from '../http/exchange.js';
import type { NotifyWiring } from './runner.js';
import { findSubscription } from './subscriptions.js';

const RETRY_EXAMPLE = '{"which": "all"}';
const TEST_EXAMPLE = '{"subscription": "ops-hook"}';

/**
 * `POST /v1/notify/retry` (`{which}`: a delivery id, a subscription id or `all`) and `POST /v1/notify/test`
 * (`{subscription}`): what `svc notify retry` and `svc notify test` ask a running daemon.
 */
export function notifyHandler(notify: () => NotifyWiring | null): Handler {
  return async (req: IncomingMessage & { params?: Record<string, string> }, res: ServerResponse) => {
    const action = req.params?.action ?? '';
    const wiring = notify();
    if (!wiring)
      throw new SvcError(
        'unavailable',
        'This daemon runs without a scheduler: it sends no notifications.',
        'Start it with `svc daemon start`.',
      );
    if (action === 'retry') {
      const which = toText(await readJson(req, RETRY_EXAMPLE), 'which', RETRY_EXAMPLE);
      const count = await wiring.notifier().retry(which);
      wiring.poke();
      return sendJson(res, 200, {
        ok: true,
        count,
        delivering: wiring.status().delivering,
      } satisfies NotifyRetryResponse);
    }
    if (action === 'test') {
      const id = toText(await readJson(req, TEST_EXAMPLE), 'subscription', TEST_EXAMPLE);
      findSubscription(await wiring.subscriptions(), id);
      const result = await wiring.notifier().sendTest(id);
      return sendJson(res, 200, { ok: true, result } satisfies NotifyTestResponse);
    }
    throw new SvcError(
      'not_found',
      `Unknown notify action ${JSON.stringify(action)}.`,
      `Actions: ${NOTIFY_ACTIONS.join(', ')} (${toRouteLabel(ROUTES.notify)}).`,
    );
  };
}

// --- internal ---

function toText(body: unknown, key: string, example: string): string {
  const value = assertObject(body ?? {}, `The ${toRouteLabel(ROUTES.notify)} request`, example)[key];
  if (typeof value === 'string' && value.length > 0 && value.length <= 200) return value;
  throw new SvcError(
    'validation_error',
    `${toRouteLabel(ROUTES.notify)} takes ${key} as a non-empty string (found ${JSON.stringify(value) ?? 'nothing'}).`,
    `Send ${example}.`,
  );
}
