import type { IncomingMessage, ServerResponse } from 'node:http';
import { SvcError, toSvcError } from '../../core/errors.js';
import { assertRequestId, REQUEST_ID_HEADER } from '../../core/request-id.js';
import { answerOnce, type Answer, type RequestCall } from '../../store/records/request-memory.js';
import { sendJson } from '../http/exchange.js';

/** The request id of a call (the `Idempotency-Key` header), validated; undefined when absent. */
export function toRequestId(req: IncomingMessage): string | undefined {
  const value = req.headers[REQUEST_ID_HEADER];
  if (value === undefined) return undefined;
  if (Array.isArray(value))
    throw new SvcError(
      'validation_error',
      `The ${REQUEST_ID_HEADER} header was sent ${value.length} times; a call has one request id.`,
      'Send the header once.',
    );
  return assertRequestId(value.trim());
}

/** One call to answer: where its answer is kept, the call itself, its run, and where failures go. */
export interface CallToAnswer {
  /** The tree whose `data/requests/` keeps the answers. */
  root: string;
  /** The call under its request id; undefined for one without (it just runs). */
  call: RequestCall | undefined;
  run: () => Promise<unknown>;
  /** Gets the failures of the run that are the daemon's own (HTTP 5xx). */
  onFailure: (err: SvcError) => void;
}

/**
 * Answers a tool call that carries a request id: run once, its answer (success or error) kept in
 * `data/requests/` and sent again to every repeat, with `idempotent-replayed: true`. Failures of
 * the first run that are the daemon's own (HTTP 5xx) go to `onFailure` (the log), once.
 */
export async function sendOnce(res: ServerResponse, toAnswer: CallToAnswer & { call: RequestCall }): Promise<void> {
  const answer = await answerCall(toAnswer);
  if (!res.headersSent) res.setHeader('idempotent-replayed', String(answer.repeated));
  sendJson(res, answer.status, answer.body);
}

/**
 * The answer of one call as its request would get it (the HTTP status and the body): run once
 * under its request id as `sendOnce` says, or just run when it has none.
 */
export async function answerCall({
  root,
  call,
  run,
  onFailure,
}: CallToAnswer): Promise<Answer & { repeated: boolean }> {
  const act = async (): Promise<Answer> => {
    try {
      return { status: 200, body: { ok: true, result: (await run()) ?? null } };
    } catch (err) {
      const error = toSvcError(err);
      if (error.status >= 500) onFailure(error);
      return { status: error.status, body: error.toJSON() };
    }
  };
  return call === undefined ? { ...(await act()), repeated: false } : answerOnce(root, call, { act });
}
