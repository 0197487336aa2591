import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** Options of `limitConnections`. */
export interface ConnectionLimits {
  /** Connections open at once. */
  max: number;
  /** A new connection with no request in flight for this long is answered 408 and closed (its head is late). */
  idleMs: number;
  /** A connection is closed this long after its last answer unless its next request has arrived. */
  keepAliveMs: number;
  /** Told when a connection is refused because every open one has a whole request in flight. */
  onRefused?: (open: number) => void;
}

/** What the limits did so far. */
export interface ConnectionStats {
  open(): number;
  /** Connections closed to make room for a new one, or idle past their time. */
  closedIdle(): number;
  /** New connections refused because every open one had a whole request in flight. */
  refused(): number;
  /** True for a refused connection: its request is to be answered 503 `busy`, then it closes. */
  isRefused(socket: Socket): boolean;
}

/**
 * Bounds the connections of a server: one with no request in flight is answered 408 and closed
 * after `idleMs` (closed after `keepAliveMs` once it has been answered), and past `max` one is
 * closed to make room: the longest-idle, or the one whose request has been arriving the longest (a
 * client trickling its body). A new one is refused only when every open connection has a whole
 * request in flight: its request is answered 503 `busy` (see `isRefused`), or, past `max` refused
 * ones waiting for their heads, it is closed at once. So clients that connect and never speak, or
 * speak a byte at a time, cannot exhaust the daemon's file descriptors, and a health check still
 * gets through.
 */
export function limitConnections(server: Server, limits: ConnectionLimits): ConnectionStats {
  const { max, idleMs, keepAliveMs } = limits;
  const refusedSockets = new Set<Socket>();
  const idle = new Map<Socket, Idle>(); // insertion order: longest idle first
  const busy = new Map<Socket, Arriving[]>(); // insertion order: oldest request first
  let closedIdle = 0;
  let refused = 0;
  const rest = (socket: Socket, ms: number, answer?: string) => {
    const timer = setTimeout(() => drop(socket, answer), ms);
    timer.unref();
    idle.set(socket, { timer, since: performance.now() });
  };
  const wake = (socket: Socket) => {
    clearTimeout(idle.get(socket)?.timer);
    idle.delete(socket);
  };
  const drop = (socket: Socket, answer?: string) => {
    wake(socket);
    busy.delete(socket);
    if (socket.destroyed) return;
    closedIdle++;
    if (answer && socket.writable) socket.write(answer);
    socket.destroy();
  };
  server.on('connection', (socket: Socket) => {
    if (idle.size + busy.size >= max) {
      const room = findRoom(idle, busy);
      if (room === undefined) {
        refused++;
        limits.onRefused?.(busy.size);
        if (refusedSockets.size >= max) return void socket.destroy();
        refusedSockets.add(socket);
        socket.once('close', () => refusedSockets.delete(socket));
        return;
      }
      drop(room);
    }
    rest(socket, idleMs, LATE_HEAD);
    socket.once('close', () => {
      wake(socket);
      busy.delete(socket);
    });
  });
  server.on('request', (req: IncomingMessage, res) => {
    const socket = req.socket;
    if (refusedSockets.has(socket)) return;
    wake(socket);
    busy.set(socket, [...(busy.get(socket) ?? []), { req, since: performance.now() }]);
    res.once('close', () => {
      const left = (busy.get(socket) ?? []).filter((other) => other.req !== req);
      if (left.length > 0) return void busy.set(socket, left);
      busy.delete(socket);
      if (!socket.destroyed) rest(socket, keepAliveMs);
    });
  });
  return {
    open: () => idle.size + busy.size,
    closedIdle: () => closedIdle,
    refused: () => refused,
    isRefused: (socket) => refusedSockets.has(socket),
  };
}

// --- internal ---

/**
 * What a connection whose head is late is told, as node's own head deadline tells it: this
 * module's timer and node's check race when both fall due in one turn of a loaded event loop.
 */
const LATE_HEAD = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

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
