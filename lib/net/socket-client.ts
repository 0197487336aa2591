import { request, type IncomingHttpHeaders } from 'node:http';
import { ERROR_STATUS, type ErrorCode, SvcError } from '../core/errors.js';
import type { InvokeRequest, InvokeResponse } from './protocol/bodies.js';
import { ROUTES } from './protocol/routes.js';

/** An answer over the socket: the HTTP status, the parsed JSON body (null when empty) and the headers. */
export interface SocketResponse {
  status: number;
  body: unknown;
  headers: IncomingHttpHeaders;
}

/** What one request asks: its method and path, and the body sent as JSON (a string or Buffer as is). */
export interface SocketCall {
  method: string;
  path: string;
  /** None for a request without a body. */
  body?: unknown;
}

/** Options of one request. */
export interface SocketRequestOptions {
  headers?: Record<string, string>;
  /** Give up after this long (default 30 s); long-polls pass more. */
  timeoutMs?: number;
  /** Abandons the request (it then fails with the signal's reason). */
  signal?: AbortSignal;
}

/**
 * What a request that got no answer becomes: the command line and the gateway plugin word a
 * missing daemon for different readers. `err.code` is the system's (`ENOENT`, `ECONNREFUSED`,
 * `EACCES`, ...), `ETIMEDOUT` past `timeoutMs`, `ABORT_ERR` when the signal fired.
 */
export type ToUnreachable = (err: NodeJS.ErrnoException, socketPath: string) => Error;

/** A client of the daemon's socket, with its own wording of a daemon that does not answer. */
export interface SocketClient {
  /** One HTTP request; `call.body` is sent as JSON (a string or Buffer as is). */
  request(socketPath: string, call: SocketCall, options?: SocketRequestOptions): Promise<SocketResponse>;
  /** Calls an svc tool on the daemon: its result, or the daemon's error as an SvcError. */
  invoke(socketPath: string, call: InvokeRequest, options?: SocketRequestOptions): Promise<unknown>;
}

/** Builds the client that every caller of the daemon's socket uses, wording failures with `toUnreachable`. */
export function createSocketClient(toUnreachable: ToUnreachable): SocketClient {
  const send = (socketPath: string, call: SocketCall, options: SocketRequestOptions = {}) =>
    sendRequest(socketPath, call, { ...options, toUnreachable });
  return {
    request: send,
    async invoke(socketPath, call, options) {
      const { status, body } = await send(socketPath, { ...ROUTES.toolInvoke, body: call }, options);
      const shaped = body as Partial<InvokeResponse> | null;
      if (status === 200 && shaped?.ok === true) return shaped.result;
      throw toAnswerError(status, body);
    },
  };
}

/** Turns an error-shaped body into an SvcError (any other body into `internal`). */
export function toAnswerError(status: number, body: unknown): SvcError {
  const error = (body as { error?: { code?: string; message?: string; hint?: string } } | null)?.error;
  const code = error?.code && Object.hasOwn(ERROR_STATUS, error.code) ? (error.code as ErrorCode) : 'internal';
  return new SvcError(
    code,
    error?.message ?? `The svc daemon answered HTTP ${status} without an error body.`,
    error?.hint,
  );
}

// --- internal ---

function sendRequest(
  socketPath: string,
  { method, path, body }: SocketCall,
  options: SocketRequestOptions & { toUnreachable: ToUnreachable },
): Promise<SocketResponse> {
  const { toUnreachable } = options;
  const payload =
    body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const headers: Record<string, string | number> = { ...options.headers };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => reject(toUnreachable(err, socketPath));
    const req = request(
      { socketPath, method, path, headers, agent: false, ...(options.signal ? { signal: options.signal } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: parseBody(Buffer.concat(chunks).toString('utf8')),
            headers: res.headers,
          }),
        );
      },
    );
    const timeoutMs = options.timeoutMs ?? 30_000;
    req.setTimeout(timeoutMs, () =>
      req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
    );
    req.on('error', fail);
    req.end(payload);
  });
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
