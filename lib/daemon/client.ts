import { request, type IncomingHttpHeaders } from 'node:http';
import { ERROR_STATUS, type ErrorCode, hasCode, SvcError } from '../core/errors.js';

/** A daemon's answer: the HTTP status, the parsed JSON body (null when empty) and the headers. */
export interface DaemonResponse {
  status: number;
  body: unknown;
  headers: IncomingHttpHeaders;
}

/** Options of `requestDaemon`. */
export interface RequestOptions {
  headers?: Record<string, string>;
  /** Give up after this long (default 30 s); long-polls pass more. */
  timeoutMs?: number;
  /** Abandons the request (it then rejects with the signal's reason). */
  signal?: AbortSignal;
}

/**
 * One HTTP request over the daemon's Unix socket. `body` is sent as JSON (a string or Buffer as is).
 * A missing or refusing socket is `unavailable` ("daemon not running").
 */
export function requestDaemon(socketPath: string, method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<DaemonResponse> {
  const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const headers: Record<string, string | number> = { ...options.headers };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path, headers, agent: false, ...(options.signal ? { signal: options.signal } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err) => reject(toUnavailable(err, socketPath)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: parseBody(Buffer.concat(chunks).toString('utf8')), headers: res.headers }));
    });
    const timeoutMs = options.timeoutMs ?? 30_000;
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    req.on('error', (err) => reject(toUnavailable(err, socketPath)));
    req.end(payload);
  });
}

/** Calls a tool on the daemon; returns its result or throws the daemon's error as an SvcError. */
export async function invokeDaemon(socketPath: string, tool: string, params: unknown = {}): Promise<unknown> {
  const { status, body } = await requestDaemon(socketPath, 'POST', '/v1/tool/invoke', { tool, params });
  const shaped = body as { ok?: boolean; result?: unknown } | null;
  if (status === 200 && shaped?.ok === true) return shaped.result;
  throw toDaemonError(status, body);
}

/** Turns an error-shaped body into an SvcError (any other body into `internal`). */
export function toDaemonError(status: number, body: unknown): SvcError {
  const error = (body as { error?: { code?: string; message?: string; hint?: string } } | null)?.error;
  const code = error?.code && Object.hasOwn(ERROR_STATUS, error.code) ? (error.code as ErrorCode) : 'internal';
  return new SvcError(code, error?.message ?? `The daemon answered HTTP ${status} without an error body.`, error?.hint);
}

// --- internal ---

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toUnavailable(err: Error, socketPath: string): SvcError {
  if (hasCode(err, 'ENOENT') || hasCode(err, 'ECONNREFUSED') || hasCode(err, 'ENOTSOCK')) {
    return new SvcError('unavailable', `The svc daemon is not running (nothing answers on ${socketPath}).`, 'Start it with `svc daemon start`.', { cause: err });
  }
  if (hasCode(err, 'EACCES')) {
    return new SvcError('unavailable', `Permission denied on ${socketPath}: the daemon belongs to another user.`, 'Run svc as the user who installed the daemon.', { cause: err });
  }
  if (hasCode(err, 'ETIMEDOUT')) {
    return new SvcError('unavailable', `The svc daemon did not answer on ${socketPath} (${err.message}).`, 'Check it with `svc daemon status` and its log in data/logs/daemon.log.', { cause: err });
  }
  return new SvcError('unavailable', `The svc daemon connection failed (${(err as { code?: string }).code ?? err.message}).`, 'Check it with `svc daemon status`.', { cause: err });
}
