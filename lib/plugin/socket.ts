import { SvcError } from '../core/errors.js';
import type { InvokeRequest } from '../net/protocol/bodies.js';
import {
  createSocketClient,
  toAnswerError,
  type SocketCall,
  type SocketRequestOptions,
  type SocketResponse,
} from '../net/socket-client.js';

// The plugin's side of the daemon's socket: the shared client (net/socket-client.ts), with the
// wording of a daemon that does not answer for whoever runs the gateway.

export type { SocketCall, SocketRequestOptions, SocketResponse };

// The gateway calls the daemon all day (spawn long-polls, tool calls, hooks): over kept connections.
const client = createSocketClient(toUnreachable, { keepAlive: true });

/**
 * One JSON request to the daemon over its Unix socket. A socket that is missing or refuses is
 * `unavailable` with the message `daemon unreachable`, naming the socket and `svc daemon start`.
 */
export function requestSocket(
  socket: string,
  call: SocketCall,
  options: SocketRequestOptions = {},
): Promise<SocketResponse> {
  return client.request(socket, call, options);
}

/** Calls an svc tool on the daemon: its result, or the daemon's error as an SvcError. */
export function invokeOverSocket(socket: string, call: InvokeRequest, signal?: AbortSignal): Promise<unknown> {
  return client.invoke(socket, call, signal ? { signal } : {});
}

/** Turns an error-shaped body into an SvcError (any other body into `internal`). */
export function toSvcErrorOf(status: number, body: unknown): SvcError {
  return toAnswerError(status, body);
}

/** True for the error of a socket nobody answers on (the daemon is down). */
export function isUnreachable(err: unknown): boolean {
  return err instanceof SvcError && err.code === 'unavailable' && err.message.startsWith('daemon unreachable');
}

// --- internal ---

function toUnreachable(err: NodeJS.ErrnoException, socket: string): Error {
  const code = err.code;
  if (err.name === 'AbortError' || code === 'ABORT_ERR') return err;
  if (code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'ENOTSOCK') {
    return new SvcError('unavailable', `daemon unreachable: nothing answers on ${socket}.`, {
      hint:
        'Start it with `svc daemon start` (as the user the gateway ' +
        'runs as), then check it with `svc daemon status`.',
      cause: err,
    });
  }
  if (code === 'EACCES') {
    return new SvcError(
      'unavailable',
      `daemon unreachable: permission denied on ${socket}; the daemon belongs to another user.`,
      { hint: 'Run the gateway and `svc daemon start` as the same Unix user.', cause: err },
    );
  }
  if (code === 'ETIMEDOUT') {
    return new SvcError('unavailable', `The svc daemon did not answer on ${socket} in time.`, {
      hint: 'Check it with `svc daemon status` and its log in data/logs/daemon.log.',
      cause: err,
    });
  }
  return new SvcError('unavailable', `The svc daemon connection on ${socket} failed (${code ?? err.message}).`, {
    hint: 'Check it with `svc daemon status`; start it with `svc daemon start`.',
    cause: err,
  });
}
