// The bodies of `POST /v1/notify/retry` and `POST /v1/notify/test` (docs/notifications.md, "Commands").

/** `POST /v1/notify/retry`: a delivery id, a subscription id, or `all`. */
export interface NotifyRetryRequest {
  which: string;
}

/** Its answer: how many deliveries were made due now, and whether this daemon delivers them (else the next owner). */
export interface NotifyRetryResponse {
  ok: true;
  count: number;
  delivering: boolean;
}

/** `POST /v1/notify/test`: the subscription to send a sample to. */
export interface NotifyTestRequest {
  subscription: string;
}

/** Its answer: the outcome of the one attempt (`status`: the HTTP status of a webhook). */
export interface NotifyTestResponse {
  ok: true;
  result: { ok: boolean; status?: number; error?: string; ms: number };
}
