import { request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { hasCode, SvcError } from '../core/errors.js';
import { HEALTH_PORT_ROUTES, healthUrl, ROUTES, toRouteLabel } from '../net/protocol/routes.js';
import { sendError, sendJson } from './http/exchange.js';
import { createLimitedServer, DEFAULT_LIMITS, type ServerLimits } from './http/limits.js';

/** The only address the health port ever binds: loopback. */
export const HEALTH_HOST = '127.0.0.1';

/** Options of `startHealthPort`. */
export interface HealthPortOptions {
  port: number;
  /** The socket's deadlines and connection cap, applied here too (`DEFAULT_LIMITS`). */
  limits?: ServerLimits;
  /** Why the daemon is not healthy (answered with 503), or null when it is (200). */
  problem: () => string | null;
  /** Serves `GET /metrics` too (the daemon's metrics, docs/metrics.md). */
  metrics?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/** The open health port. */
export interface HealthPort {
  port: number;
  close(): Promise<void>;
}

/** What `GET /health` on a port answered. */
export interface HealthAnswer {
  healthy: boolean;
  /** The HTTP status, or null when nothing answered. */
  status: number | null;
  reason?: string;
  /** It answered 503 `busy`: alive, every connection has a request in flight. */
  busy?: boolean;
}

/**
 * Opens the daemon's one TCP listener on 127.0.0.1:`port`, serving `GET /health` (200 healthy, 503
 * with the reason otherwise), `GET /metrics` when given, and 404 for every other method or path.
 */
export async function startHealthPort(options: HealthPortOptions): Promise<HealthPort> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const server = createLimitedServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === ROUTES.metrics.path && options.metrics) return void options.metrics(req, res);
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== HEALTH_PORT_ROUTES.health.path) {
      return sendError(
        res,
        new SvcError(
          'not_found',
          `${req.method} ${path} is not served on the health port: only ` +
            `${toRouteLabel(HEALTH_PORT_ROUTES.health)}` +
            `${options.metrics ? ` and ${toRouteLabel(HEALTH_PORT_ROUTES.metrics)} are` : ' is'}.`,
        ),
      );
    }
    const problem = options.problem();
    sendJson(res, problem ? 503 : 200, problem ? { ok: false, reason: problem } : { ok: true });
  }, limits);
  await listen(server, options.port);
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** `GET http://127.0.0.1:<port>/health`: healthy on 200; never throws. */
export function checkHealthPort(port: number, timeoutMs = 5000): Promise<HealthAnswer> {
  const url = healthUrl(HEALTH_HOST, port);
  return new Promise((resolve) => {
    const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => void (text += chunk.toString()));
      res.on('error', (err) =>
        resolve({ healthy: false, status: res.statusCode ?? null, reason: `${url}: ${err.message}` }),
      );
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status === 200) return resolve({ healthy: true, status });
        const reason = toReason(text);
        resolve({
          healthy: false,
          status,
          reason: `${url} answered HTTP ${status}${reason}`,
          ...(status === 503 && reason === ' (busy)' ? { busy: true } : {}),
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) =>
      resolve({ healthy: false, status: null, reason: `${url}: ${(err as { code?: string }).code ?? err.message}` }),
    );
    req.end();
  });
}

// --- internal ---

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (err) => {
      if (!hasCode(err, 'EADDRINUSE') && !hasCode(err, 'EACCES')) return reject(err);
      reject(
        new SvcError(
          'unavailable',
          `The health port ${HEALTH_HOST}:${port} cannot be opened (${(err as { code?: string }).code}).`,
          {
            hint: `Free the port or choose another with aof.daemon.healthPort in the org chart (or --port).`,
            cause: err,
          },
        ),
      );
    });
    server.listen({ port, host: HEALTH_HOST, exclusive: true }, () => resolve());
  });
}

function toReason(text: string): string {
  try {
    const body = JSON.parse(text) as { reason?: unknown; error?: { message?: unknown } };
    const reason = body.reason ?? body.error?.message;
    return typeof reason === 'string' ? ` (${reason})` : '';
  } catch {
    return '';
  }
}
