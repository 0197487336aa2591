import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_LIMITS, RETRY_AFTER_S } from './server-limits.js';

/** Options of `limitConnections`. */
export interface ConnectionLimits {
  /** Connections open at once (256). */
  max?: number;
  /** A new connection with no request in flight for this long is closed (10 s: its head is late). */
  idleMs?: number;
  /** A connection is closed this long after its last answer unless its next request has arrived (5 s). */
  keepAliveMs?: number;
  /** Told when a connection is answered 503 `busy` because every open one has a whole request in flight. */
  onRefused?: (open: number) => void;
}

/** What the limits did so far. */
export interface ConnectionStats {
  open(): number;
  /** Connections closed to make room for a new one, or idle past their time. */
  closedIdle(): number;
  /** New connections answered 503 `busy` because every open one had a whole request in flight. */
  refused(): number;
}

/**
 * Bounds the connections of a server: one with no request in flight is closed after `idleMs` (after
 * `keepAliveMs` once it has been answered), and past `max` one is closed to make room: the
 * longest-idle, else the one whose request has been arriving the longest (a client trickling its
 * body). A new one is refused, answered 503 `busy`, only when every open connection has a whole
 * request in flight. So clients that connect and never speak, or speak a byte at a time, cannot
 * exhaust the daemon's file descriptors, and a health check still gets through a flood of them.
 */
export function limitConnections(server: Server, limits: ConnectionLimits = {}): ConnectionStats {
  const max = limits.max ?? DEFAULT_LIMITS.maxConnections;
  const idleMs = limits.idleMs ?? DEFAULT_LIMITS.headersMs;
  const keepAliveMs = limits.keepAliveMs ?? DEFAULT_LIMITS.keepAliveMs;
  const idle = new Map<Socket, Idle>(); // insertion order: longest idle first
  const busy = new Map<Socket, Arriving[]>(); // insertion order: oldest request first
  let closedIdle = 0;
  let refused = 0;
  const rest = (socket: Socket, ms: number) => {
    const timer = setTimeout(() => drop(socket), ms);
    timer.unref();
    idle.set(socket, { timer, since: performance.now() });
  };
  const wake = (socket: Socket) => {
    clearTimeout(idle.get(socket)?.timer);
    idle.delete(socket);
  };
  const drop = (socket: Socket) => {
    wake(socket);
    busy.delete(socket);
    closedIdle++;
    socket.destroy();
  };
  server.on('connection', (socket: Socket) => {
    if (idle.size + busy.size >= max) {
      const room = findRoom(idle, busy);
      if (room === undefined) {
        refused++;
        limits.onRefused?.(busy.size);
        return void socket.end(toBusyAnswer(busy.size), () => socket.destroy());
      }
      drop(room);
    }
    rest(socket, idleMs);
    socket.once('close', () => {
      wake(socket);
      busy.delete(socket);
    });
  });
  server.on('request', (req: IncomingMessage, res) => {
    const socket = req.socket;
    wake(socket);
    busy.set(socket, [...(busy.get(socket) ?? []), { req, since: performance.now() }]);
    res.once('close', () => {
      const left = (busy.get(socket) ?? []).filter((other) => other.req !== req);
      if (left.length > 0) return void busy.set(socket, left);
      busy.delete(socket);
      if (!socket.destroyed) rest(socket, keepAliveMs);
    });
  });
  return { open: () => idle.size + busy.size, closedIdle: () => closedIdle, refused: () => refused };
}

// --- internal ---

interface Idle {
  timer: NodeJS.Timeout;
  since: number;
}

interface Arriving {
  req: IncomingMessage;
  since: number;
}

/**
 * The connection to close for room: of the longest-idle one and the one whose request has been
 * arriving the longest (`complete` is false until its body is in), the one waiting longer; so a
 * fresh connection whose head is on its way is the last to go.
 */
function findRoom(idle: Map<Socket, Idle>, busy: Map<Socket, Arriving[]>): Socket | undefined {
  const [idleSocket, idleState] = idle.entries().next().value ?? [];
  for (const [socket, reqs] of busy) {
    const arriving = reqs.find(({ req }) => !req.complete);
    if (!arriving) continue;
    return idleState && idleState.since <= arriving.since ? idleSocket : socket;
  }
  return idleSocket;
}

/** What a refused connection reads: the error shape, as a route would answer it. */
function toBusyAnswer(open: number): string {
  const body = JSON.stringify({
    ok: false,
    error: { code: 'busy', message: `The svc daemon is busy: all ${open} open connections have a request in flight.`, hint: `Ask again after ${RETRY_AFTER_S} s.` },
    reason: 'busy',
  });
  return `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nretry-after: ${RETRY_AFTER_S}\r\nconnection: close\r\n\r\n${body}`;
}
