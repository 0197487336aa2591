import { createHmac } from 'node:crypto';
import * as assert from 'uvu/assert';
import { listOutbox, type OutboxEntry } from '../../lib/notify/outbox.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { writeOrg } from '../helpers/agents.js';
import type { ReceivedRequest } from '../helpers/http-receiver.js';
import { within } from '../helpers/root.js';

// What the notification e2e tests share: a chart with subscriptions and small timeouts, the signature's check, the
// outbox read as the CLI reads it.

/** The daemon's settings of the tests: a short boot and poll. */
export const FAST = { bootWindowMs: 200, pollIntervalMs: 150, spawnTimeoutMs: 1500, retryBackoffMs: [100] };

/** The secret of the tests' signatures (`secretEnv: SVC_NOTIFY_SECRET`). */
export const SECRET = 'test-secret-of-the-receiver';

/** A subscription of the tests: small retries and timeouts unless said otherwise. */
export function subscription(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    format: 'json',
    retry: { initialMs: 100, maxMs: 300, giveUpAfterMs: 60_000 },
    timeoutMs: 1000,
    coalesceMs: 0,
    ...fields,
  };
}

/** Writes the org chart: the agents, the subscriptions, and further `aof` keys. */
export function writeNotifyOrg(
  root: string,
  options: { agents?: unknown[]; notify: unknown[]; aof?: Record<string, unknown>; org?: Record<string, unknown> },
): void {
  writeOrg(root, {
    agents: options.agents ?? [{ id: 'dev', name: 'Dev' }],
    ...options.org,
    aof: { daemon: FAST, notify: options.notify, ...options.aof },
  });
}

/** Asserts the request's `X-Svc-Signature: sha256=<hex>` is the HMAC-SHA256 of its raw body with `secret`. */
export function assertSigned(request: ReceivedRequest, secret = SECRET): void {
  const expected = `sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`;
  assert.is(request.headers['x-svc-signature'], expected, 'the signature verifies with the secret');
}

/** The body of a request of the `json` format. */
export interface JsonBody {
  version: number;
  deliveryId: string;
  subscription: string;
  event: { id: string; type: string; at: string; taskId?: string; payload: Record<string, unknown> };
  task?: { id: string; title: string; status: string; priority: string; project: string; agent?: string };
  why: string;
  action?: string;
  coalesced?: { count: number; taskIds: string[]; eventIds: string[] };
}

/** The parsed body of a request (the `json` format). */
export function bodyOf(request: ReceivedRequest): JsonBody {
  assert.ok(request.json, `a JSON body: ${request.body.slice(0, 200)}`);
  return request.json as JsonBody;
}

/** The outbox's files (pending, or `failed/`). */
export function outbox(root: string, failed = false): Promise<OutboxEntry[]> {
  return listOutbox(toPaths(root), { failed });
}

/** Waits until `data/outbox/` holds no delivery (every one delivered). */
export async function untilOutboxEmpty(root: string, ms = 20_000): Promise<void> {
  await within(ms, async () => (await outbox(root)).length === 0, 'an empty outbox');
}
