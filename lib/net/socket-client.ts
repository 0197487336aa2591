import { Agent, request, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
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
  /** Over a kept connection (`SocketClientOptions.keepAlive`), or one of its own; the client's choice by default. */
  keepAlive?: boolean;
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

/** How a client holds its connections. */
export interface SocketClientOptions {
  /**
   * Keep a connection open between requests and send the next over it (default false: a connection per request): a
   * process making many calls (the plugin, the bench) does not connect per call. An idle connection holds no process
   * open and is closed after `IDLE_KEEP_MS`, before the daemon would close it (its `keepAliveMs`, 5 s by default).
   */
  keepAlive?: boolean;
}

/** How long a client keeps an idle connection for its next request (the daemon keeps one 5 s). */
export const IDLE_KEEP_MS = 4000;

/** Builds the client that every caller of the daemon's socket uses, wording failures with `toUnreachable`. */
export function createSocketClient(toUnreachable: ToUnreachable, options: SocketClientOptions = {}): SocketClient {
  let kept: Agent | undefined; // made at the first request over a kept connection
  const send = (socketPath: string, call: SocketCall, opts: SocketRequestOptions = {}) => {
    const keep = opts.keepAlive ?? options.keepAlive === true;
    const agent = keep ? (kept ??= new Agent({ keepAlive: true, timeout: IDLE_KEEP_MS })) : false;
    return sendRequest(socketPath, call, { ...opts, toUnreachable, agent });
  };
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
  options: SocketRequestOptions & { toUnreachable: ToUnreachable; agent: Agent | false },
): Promise<SocketResponse> {
  const { toUnreachable, agent } = options;
  const payload =
    body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const headers: Record<string, string | number> = { ...options.headers };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  const once = (closedKept: 'send-again' | 'fail') =>
    new Promise<SocketResponse>((resolve, reject) => {
      let answered = false;
      const fail = (err: Error) =>
        // A read over a kept connection the daemon closed as it went out goes again. Never a write: the daemon may
        // have taken it and died, and then its outcome is unknown (`ECONNRESET`), which the caller must be told.
        closedKept === 'send-again' && !answered && isClosedKept(req, err)
          ? resolve(once('fail'))
          : reject(toUnreachable(err, socketPath));
      const req = request(
        { socketPath, method, path, headers, agent, ...(options.signal ? { signal: options.signal } : {}) },
        (res) => {
          answered = true;
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
  return once(method === 'GET' || method === 'HEAD' ? 'send-again' : 'fail');
}

/** A request sent over a kept connection failed because the other end had closed it. */
function isClosedKept(req: ClientRequest, err: Error): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE');
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
