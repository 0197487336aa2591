import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Default cap on connections open at once. */
export const MAX_CONNECTIONS = 256;
/** Default time a connection may stay open with no request in flight. */
export const IDLE_TIMEOUT_MS = 30_000;

/** Options of `limitConnections`. */
export interface ConnectionLimits {
  /** Connections open at once (256). */
  max?: number;
  /** A connection with no request in flight for this long is closed (30 s). */
  idleMs?: number;
  /** Told when a connection is refused because every open one is busy. */
  onRefused?: (open: number) => void;
}

/** What the limits did so far. */
export interface ConnectionStats {
  open(): number;
  /** Idle connections closed to make room for a new one, or after `idleMs`. */
  closedIdle(): number;
  /** New connections refused because every open one had a request in flight. */
  refused(): number;
}

/**
 * Bounds the connections of a server: one with no request in flight is closed after `idleMs`, and
 * past `max` the longest-idle one is closed to make room (a new one is refused only when every
 * open connection is busy). So clients that connect and never speak cannot exhaust the daemon's
 * file descriptors, and a health check still gets through a flood of them.
 */
export function limitConnections(server: Server, limits: ConnectionLimits = {}): ConnectionStats {
  const max = limits.max ?? MAX_CONNECTIONS;
  const idleMs = limits.idleMs ?? IDLE_TIMEOUT_MS;
  const idle = new Map<Socket, NodeJS.Timeout>(); // insertion order: longest idle first
  const busy = new Map<Socket, number>();
  let closedIdle = 0;
  let refused = 0;
  const rest = (socket: Socket) => {
    const timer = setTimeout(() => drop(socket), idleMs);
    timer.unref();
    idle.set(socket, timer);
  };
  const wake = (socket: Socket) => {
    clearTimeout(idle.get(socket));
    idle.delete(socket);
  };
  const drop = (socket: Socket) => {
    wake(socket);
    closedIdle++;
    socket.destroy();
  };
  server.on('connection', (socket: Socket) => {
    if (idle.size + busy.size >= max) {
      const oldest = idle.keys().next();
      if (oldest.done) {
        refused++;
        limits.onRefused?.(busy.size);
        return void socket.destroy();
      }
      drop(oldest.value);
    }
    rest(socket);
    socket.once('close', () => {
      wake(socket);
      busy.delete(socket);
    });
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    wake(socket);
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (busy.get(socket) ?? 1) - 1;
      if (left > 0) return void busy.set(socket, left);
      busy.delete(socket);
      if (!socket.destroyed) rest(socket);
    });
  });
  return { open: () => idle.size + busy.size, closedIdle: () => closedIdle, refused: () => refused };
}
