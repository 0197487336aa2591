import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { SvcError } from '../../core/errors.js';
import { limitConnections } from './connections.js';
import { sendJson, shielded, type OnFailure } from './exchange.js';

/**
 * What one client may hold of the daemon's socket (docs/daemon.md, Limits). A client that
 * trickles its request, holds connections open or piles up long-polls gets cut off by these, so
 * `/healthz` and ordinary requests always find room.
 */
export interface ServerLimits {
  /** A new connection must have sent a whole request head within this (10 s). */
  headersMs: number;
  /** A request must have arrived whole, head and body, within this from its first byte (30 s). */
  requestMs: number;
  /** A connection is closed this long after its last answer unless its next request has arrived (5 s). */
  keepAliveMs: number;
  /** Connections open at once (256). */
  maxConnections: number;
  /** `GET /v1/tasks/changes` long-polls held at once; more are answered 429 at once (64). */
  maxChangeWaits: number;
  /** `GET /v1/spawns/wait` long-polls held at once; more are answered 429 at once (32). */
  maxSpawnWaits: number;
  /** How often the deadlines are checked: a request is cut off at most this late (1 s). */
  checkIntervalMs: number;
}

/** The limits of a daemon started without others. */
export const DEFAULT_LIMITS: Readonly<ServerLimits> = Object.freeze({
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  maxConnections: 256,
  maxChangeWaits: 64,
  maxSpawnWaits: 32,
  checkIntervalMs: 1_000,
});

/** The seconds a client told 429 or 503 `busy` should wait before it asks again. */
export const RETRY_AFTER_S = 1;

/** The defaults with `overrides` applied. */
export function toServerLimits(overrides: Partial<ServerLimits> = {}): ServerLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}

/** Options of `createLimitedServer`. */
export interface LimitedServerOptions {
  /** Told when a connection is refused because every open one has a whole request in flight. */
  onRefused?: (open: number) => void;
  /** Told of a failure no route caught (the request is answered 500 and the server serves on). */
  onFailure?: OnFailure;
}

/**
 * Creates an HTTP server that enforces `limits`: node answers 408 and closes a connection whose
 * request head or whole request is late (checked every `checkIntervalMs`) and closes an idle
 * keep-alive connection; `limitConnections` caps the connections, and the request of one it
 * refused is answered 503 `busy` here, before any route sees it. No request can throw past
 * `handler` (`shielded`): an unexpected failure is a 500 for that request and the server serves on.
 */
export function createLimitedServer(
  handler: RequestListener,
  limits: ServerLimits,
  options: LimitedServerOptions = {},
): Server {
  const server = createServer(
    {
      // node requires the head deadline not to pass the whole request's; a larger one waits for the latter
      headersTimeout: Math.min(limits.headersMs, limits.requestMs),
      requestTimeout: limits.requestMs,
      keepAliveTimeout: limits.keepAliveMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    shielded(
      (req, res) => (connections.isRefused(req.socket) ? sendBusy(res, connections.open()) : handler(req, res)),
      options.onFailure,
    ),
  );
  const connections = limitConnections(server, {
    max: limits.maxConnections,
    // node's own head deadline answers 408 first; this answers 408 and closes what it missed
    idleMs: limits.headersMs + limits.checkIntervalMs,
    keepAliveMs: limits.keepAliveMs,
    ...(options.onRefused ? { onRefused: options.onRefused } : {}),
  });
  return server;
}

// --- internal ---

function sendBusy(res: ServerResponse, open: number): void {
  res.setHeader('retry-after', String(RETRY_AFTER_S));
  res.setHeader('connection', 'close');
  const error = new SvcError(
    'busy',
    `The svc daemon is busy: all ${open} open connections have a request in flight.`,
    `Ask again after ${RETRY_AFTER_S} s (the Retry-After header).`,
  );
  sendJson(res, 503, { ...error.toJSON(), reason: 'busy' });
}
