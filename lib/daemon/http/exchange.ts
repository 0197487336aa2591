import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { describeError, SvcError, toSvcError } from '../../core/errors.js';

/** Largest request body accepted (docs/architecture.md, "Interfaces"). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A route handler: may throw anything; the wrapper turns it into the error shape. */
export type Handler = (
  req: IncomingMessage & { params?: Record<string, string> },
  res: ServerResponse,
) => Promise<void> | void;

/** Called with every failure that is not a plain client error (for the log). */
export type OnFailure = (err: SvcError, req: IncomingMessage) => void;

/** Wraps a handler so every failure, sync or async, answers `{ok:false, error}` with its HTTP status. */
export function route(handler: Handler, onFailure?: OnFailure): Handler {
  return async (req, res) => {
    try {
      await handler(req, res);
    } catch (err) {
      sendError(res, err, { req, onFailure });
    }
  };
}

/**
 * A request listener no request can throw past: a failure of `handler`, sync or async, answers
 * that request with the error shape (500 `internal` for anything but an SvcError), is told to
 * `onFailure` (the log) when it is the server's, and the server serves on.
 */
export function shielded(
  handler: (req: IncomingMessage, res: ServerResponse) => unknown,
  onFailure?: OnFailure,
): RequestListener {
  return (req, res) => {
    const fail = (err: unknown) => {
      try {
        sendError(res, err, { req, onFailure });
      } catch {
        res.destroy();
      }
    };
    try {
      const out = handler(req, res);
      if (out instanceof Promise) out.catch(fail);
    } catch (err) {
      fail(err);
    }
  };
}

/**
 * The URL of a request's target, or null when it is not a path (`*`, an absolute URL) or does not
 * parse: `//` and `/\` are paths to node's server but hosts to `new URL(target, base)`.
 */
export function requestUrl(req: IncomingMessage): URL | null {
  const target = req.url ?? '/';
  if (!target.startsWith('/')) return null;
  try {
    return new URL(`http://svc${target}`);
  } catch {
    return null;
  }
}

/** The query of a request (empty when its target does not parse: `requestUrl`). */
export function queryOf(req: IncomingMessage): URLSearchParams {
  return requestUrl(req)?.searchParams ?? new URLSearchParams();
}

/** Sends a JSON body with a status. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return void res.end();
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * Sends the error shape of `err` with the HTTP status of its code; one of the daemon's own (5xx) goes to `onFailure`
 * with `req`.
 */
export function sendError(
  res: ServerResponse,
  err: unknown,
  { req, onFailure }: { req?: IncomingMessage; onFailure?: OnFailure } = {},
): void {
  const error = toSvcError(err);
  if (req && onFailure && error.status >= 500) onFailure(error, req);
  sendJson(res, error.status, error.toJSON());
}

/**
 * Reads a JSON request body: empty is `undefined`; over `MAX_BODY_BYTES` is `too_large` (the
 * rest is drained so the client reads the answer); anything but JSON is `validation_error`, whose
 * hint shows `example`, the body this route takes.
 */
export async function readJson(req: IncomingMessage, example: string, limit = MAX_BODY_BYTES): Promise<unknown> {
  const text = await readBody(req, limit);
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const reason = describeError(err);
    throw new SvcError(
      'validation_error',
      `The request body is not valid JSON: ${reason}.`,
      `Send a JSON object, for example ${example}.`,
    );
  }
}

/** Throws `validation_error` unless `value` is a plain JSON object. */
export function assertObject(value: unknown, what: string, example: string): Record<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new SvcError(
    'validation_error',
    `${what} must be a JSON object; got ${describe(value)}.`,
    `Send for example ${example}.`,
  );
}

// --- internal ---

/** Bodies past this are cut off by closing the connection instead of draining them. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > DRAIN_LIMIT) req.destroy();
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > limit) reject(tooLarge(size, limit));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

function tooLarge(size: number, limit: number): SvcError {
  return new SvcError(
    'too_large',
    `The request body has ${size} bytes; the limit is ${limit} (1 MiB).`,
    'Keep large material in files and pass their paths.',
  );
}

function describe(value: unknown): string {
  if (value === undefined) return 'an empty body';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
