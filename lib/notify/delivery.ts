import type { Subscription } from '../org/schema.js';
import { formatRequest, toJsonPayload } from './formats.js';
import type { Notification } from './notification.js';
import { postHttp, runCommand, type SendResult } from './send.js';
import { SIGNATURE_HEADER, signBody } from './sign.js';

/** What one delivery reads besides the notification: the environment (for `secretEnv`) and a signal that stops it. */
export interface DeliverContext {
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/**
 * Sends one notification once, as its subscription says: a POST of the format's body with the delivery's headers
 * (`X-Svc-Delivery`, `X-Svc-Event`, `X-Svc-Event-Id`, and `X-Svc-Signature` when the subscription has a secret), or
 * the command with the `json` payload on its stdin. A `secretEnv` that is not set fails the attempt, naming it.
 */
export async function deliver(n: Notification, sub: Subscription, ctx: DeliverContext): Promise<SendResult> {
  if (sub.command) {
    return runCommand({
      argv: sub.command,
      input: `${JSON.stringify(toJsonPayload(n))}\n`,
      env: { ...ctx.env, SVC_DELIVERY_ID: n.deliveryId, SVC_EVENT: n.event.type },
      timeoutMs: sub.timeoutMs,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
  }
  if (!sub.webhook) return { ok: false, error: 'the subscription has neither a webhook nor a command' };
  const secret = sub.secretEnv ? ctx.env[sub.secretEnv] : undefined;
  if (sub.secretEnv && !secret) {
    return {
      ok: false,
      error: `${sub.secretEnv} (secretEnv) is not set in the daemon's environment nor in data/daemon.env`,
    };
  }
  const request = formatRequest(n, { format: sub.format, url: sub.webhook });
  const headers: Record<string, string> = {
    'content-type': request.contentType,
    'user-agent': 'svc-notify/1',
    'X-Svc-Delivery': n.deliveryId,
    'X-Svc-Event': n.event.type,
    'X-Svc-Event-Id': n.event.id,
    ...(secret ? { [SIGNATURE_HEADER]: signBody(request.body, secret) } : {}),
  };
  return postHttp({
    url: request.url,
    body: request.body,
    headers,
    timeoutMs: sub.timeoutMs,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
}
