import { request } from 'node:http';
import { ERROR_STATUS, SvcError, type ErrorCode } from '../core/errors.js';

/** A daemon's answer: the HTTP status and the parsed JSON body (null when empty). */
export interface SocketResponse {
  status: number;
  body: unknown;
}

/** Options of `requestSocket`. */
export interface SocketRequestOptions {
  headers?: Record<string, string>;
  /** Give up after this long (default 30 s). */
  timeoutMs?: number;
  /** Aborts the request (a long-poll being stopped). */
  signal?: AbortSignal;
}

/**
 * One JSON request to the daemon over its Unix socket. A socket that is missing or refuses is
 * `unavailable` with the message `daemon unreachable`, naming the socket and `svc daemon start`.
 */
export function requestSocket(socket: string, method: string, path: string, body?: unknown, options: SocketRequestOptions = {}): Promise<SocketResponse> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string | number> = { ...options.headers };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: socket, method, path, headers, agent: false, ...(options.signal ? { signal: options.signal } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err) => reject(toUnreachable(err, socket)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: parseBody(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', (err) => reject(toUnreachable(err, socket)));
    req.end(payload);
  });
}

/** Calls an svc tool on the daemon: its result, or the daemon's error as an SvcError. */
export async function invokeOverSocket(socket: string, tool: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
  const { status, body } = await requestSocket(socket, 'POST', '/v1/tool/invoke', { tool, params }, signal ? { signal } : {});
  const shaped = body as { ok?: boolean; result?: unknown } | null;
  if (status === 200 && shaped?.ok === true) return shaped.result;
  throw toSvcErrorOf(status, body);
}

/** Turns an error-shaped body into an SvcError (any other body into `internal`). */
export function toSvcErrorOf(status: number, body: unknown): SvcError {
  const error = (body as { error?: { code?: string; message?: string; hint?: string } } | null)?.error;
  const code = error?.code && Object.hasOwn(ERROR_STATUS, error.code) ? (error.code as ErrorCode) : 'internal';
  return new SvcError(code, error?.message ?? `The svc daemon answered HTTP ${status} without an error body.`, error?.hint);
}

/** True for the error of a socket nobody answers on (the daemon is down). */
export function isUnreachable(err: unknown): boolean {
  return err instanceof SvcError && err.code === 'unavailable' && err.message.startsWith('daemon unreachable');
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

function toUnreachable(err: Error, socket: string): Error {
  const code = (err as { code?: string }).code;
  if (err.name === 'AbortError' || code === 'ABORT_ERR') return err;
  if (code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'ENOTSOCK') {
    return new SvcError('unavailable', `daemon unreachable: nothing answers on ${socket}.`, 'Start it with `svc daemon start` (as the user the gateway runs as), then check it with `svc daemon status`.', { cause: err });
  }
  if (code === 'EACCES') {
    return new SvcError('unavailable', `daemon unreachable: permission denied on ${socket}; the daemon belongs to another user.`, 'Run the gateway and `svc daemon start` as the same Unix user.', { cause: err });
  }
  if (code === 'ETIMEDOUT') {
    return new SvcError('unavailable', `The svc daemon did not answer on ${socket} in time.`, 'Check it with `svc daemon status` and its log in data/logs/daemon.log.', { cause: err });
  }
  return new SvcError('unavailable', `The svc daemon connection on ${socket} failed (${code ?? err.message}).`, 'Check it with `svc daemon status`; start it with `svc daemon start`.', { cause: err });
}
