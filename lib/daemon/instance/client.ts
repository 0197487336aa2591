import { hasCode, SvcError } from '../../core/errors.js';
import {
  createSocketClient,
  toAnswerError,
  type SocketCall,
  type SocketRequestOptions,
  type SocketResponse,
} from '../../net/socket-client.js';

// The daemon's own clients (the command line, the watchdog, a second daemon) over the shared socket
// client (net/socket-client.ts), with the wording of a daemon that does not answer for an operator.

/** A daemon's answer: the HTTP status, the parsed JSON body (null when empty) and the headers. */
export type DaemonResponse = SocketResponse;

/** Options of `requestDaemon`. */
export type RequestOptions = SocketRequestOptions;

const client = createSocketClient(toUnavailable);

/**
 * One HTTP request over the daemon's Unix socket. `call.body` is sent as JSON (a string or Buffer as is).
 * A missing or refusing socket is `unavailable` ("daemon not running"). A process making many calls passes
 * `keepAlive: true`: its requests then share kept connections instead of one connection each.
 */
export function requestDaemon(
  socketPath: string,
  call: SocketCall,
  options: RequestOptions = {},
): Promise<DaemonResponse> {
  return client.request(socketPath, call, options);
}

/** Calls a tool on the daemon; returns its result or throws the daemon's error as an SvcError. */
export function invokeDaemon(socketPath: string, tool: string, params: unknown = {}): Promise<unknown> {
  return client.invoke(socketPath, { tool, params });
}

/** Turns an error-shaped body into an SvcError (any other body into `internal`). */
export function toDaemonError(status: number, body: unknown): SvcError {
  return toAnswerError(status, body);
}

// --- internal ---

function toUnavailable(err: Error, socketPath: string): SvcError {
  if (hasCode(err, 'ENOENT') || hasCode(err, 'ECONNREFUSED') || hasCode(err, 'ENOTSOCK')) {
    return new SvcError('unavailable', `The svc daemon is not running (nothing answers on ${socketPath}).`, {
      hint: 'Start it with `svc daemon start`.',
      cause: err,
    });
  }
  if (hasCode(err, 'EACCES')) {
    return new SvcError('unavailable', `Permission denied on ${socketPath}: the daemon belongs to another user.`, {
      hint: 'Run svc as the user who installed the daemon.',
      cause: err,
    });
  }
  if (hasCode(err, 'ETIMEDOUT')) {
    return new SvcError('unavailable', `The svc daemon did not answer on ${socketPath} (${err.message}).`, {
      hint: 'Check it with `svc daemon status` and its log in data/logs/daemon.log.',
      cause: err,
    });
  }
  return new SvcError(
    'unavailable',
    `The svc daemon connection failed (${(err as { code?: string }).code ?? err.message}).`,
    { hint: 'Check it with `svc daemon status`.', cause: err },
  );
}
