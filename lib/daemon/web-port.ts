import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../core/time/clock.js';
import type { Hold } from '../engine/scheduler.js';
import { describeError, hasCode, SvcError } from '../core/errors.js';
import type { Paths } from '../store/disk/paths.js';
import type { Store } from '../store/commit/store.js';
import type { TaskIndex } from '../store/index/tasks.js';
import type { ChangeFeed } from './http/change-feed.js';
import type { WebAddress } from '../net/protocol/bodies.js';
import type { RouteContext } from './socket/routes.js';

/** The only address the web board binds (docs/web-board.md, "Security"). */
export const WEB_HOST = '127.0.0.1';

/** What the daemon hands the web board: the socket's tools and status, its index, change feed and log. */
export type WebMount = Pick<RouteContext, 'tools' | 'toolContext' | 'status' | 'log'> & {
  paths: Paths;
  store: Store;
  index: TaskIndex;
  changes: ChangeFeed;
  /** The plan of a scheduler tick (`svc scheduler run --dry-run`); empty without a scheduler. */
  plan: () => Promise<unknown[]>;
  clock: Clock;
  /** Why each ready task the scheduler's last tick held waits (none without a scheduler). */
  holds?: () => ReadonlyMap<string, Hold>;
  /** `GET /metrics` (daemon/metrics/registry.ts), served on the board's port behind its token. */
  metrics?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
};

/** A started web board listener. */
export interface WebServer {
  port: number;
  close(): Promise<void>;
}

/** Starts the web board on 127.0.0.1:`port` (0: any free port) with `token` (lib/web). */
export type WebStarter = (mount: WebMount, options: { port: number; token: string }) => Promise<WebServer>;

/** The daemon's web board: opened at start (`aof.daemon.webPort`) or by `svc web`, closed at stop. */
export interface WebPort {
  open(port?: number): Promise<WebAddress>;
  /** The port the board listens on, or null while it is not open. */
  port(): number | null;
  /**
   * Opens the board again at start when it was open before (`data/web.port`): an open page reconnects to the same port.
   */
  reopen(): Promise<WebAddress | null>;
  close(): Promise<void>;
}

/** The daemon's web board, started by `starter` on the first `open`. */
export function createWebPort(mount: WebMount, starter: WebStarter | undefined): WebPort {
  let running: Promise<WebServer> | null = null;
  let listening: number | null = null;
  let closed = false;
  const start = (port: number | undefined, token: string): Promise<WebServer> => {
    const last = port ? null : readLastPort(mount.paths.webPort);
    const first = starter!(mount, { port: port || last || 0, token });
    // The last port is taken again when it is free; when it is not, any free port.
    const server = last
      ? first.catch((err: unknown) =>
          hasCode(err, 'EADDRINUSE') ? starter!(mount, { port: 0, token }) : Promise.reject(err),
        )
      : first;
    return server.then((started) => {
      writeLastPort(mount.paths.webPort, started.port);
      listening = started.port;
      return started;
    });
  };
  const web: WebPort = {
    async open(port) {
      if (!starter)
        throw new SvcError(
          'unavailable',
          'This daemon was started without the web board.',
          'Run the daemon with `svc daemon start` (the command line starts it with the board).',
        );
      if (closed)
        throw new SvcError('unavailable', 'The svc daemon is shutting down.', 'Run `svc web` again once it is back.');
      const token = readOrCreateToken(mount.paths.webToken);
      running ??= start(port, token).catch((err: unknown) => {
        running = null;
        return Promise.reject(toPortError(err, port ?? 0));
      });
      const server = await running;
      if (port !== undefined && port !== 0 && port !== server.port) {
        throw new SvcError(
          'validation_error',
          `The web board already listens on port ${server.port}, not ${port}.`,
          `Open http://${WEB_HOST}:${server.port}/ (\`svc web\` without --port), or restart the daemon to move it.`,
        );
      }
      mount.log.info('web.opened', { url: `http://${WEB_HOST}:${server.port}/` });
      return { port: server.port, token, url: `http://${WEB_HOST}:${server.port}/?token=${token}` };
    },
    port: () => listening,
    async reopen() {
      if (!starter || readLastPort(mount.paths.webPort) === null) return null;
      return web.open().catch((err: unknown) => {
        mount.log.warn('web.reopen_failed', { error: describeError(err) });
        return null;
      });
    },
    async close() {
      closed = true;
      const server = await running?.catch(() => null);
      listening = null;
      await server?.close();
    },
  };
  return web;
}

/**
 * The token of the tree's web board: `data/web.token` (mode 0600), made once with 32 random bytes
 * and kept across restarts, so an open board resumes after a daemon restart; delete it to rotate.
 */
export function readOrCreateToken(file: string): string {
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    const token = readFileSync(file, 'utf8').trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(token)) return token;
  } catch (err) {
    if (!hasCode(err, 'ENOENT')) throw err;
  }
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}

// --- internal ---

function readLastPort(file: string): number | null {
  try {
    const port = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
  } catch {
    return null; // never opened on this tree, or unreadable: any free port
  }
}

function writeLastPort(file: string, port: number): void {
  try {
    writeFileSync(file, `${port}\n`);
  } catch {
    // a board that cannot record its port still serves; the next start picks any free port
  }
}

function toPortError(err: unknown, port: number): unknown {
  if (!hasCode(err, 'EADDRINUSE') && !hasCode(err, 'EACCES')) return err;
  return new SvcError(
    'unavailable',
    `The web board cannot listen on ${WEB_HOST}:${port} (${(err as { code?: string }).code}).`,
    { hint: 'Free the port or choose another with `svc web --port <n>` or aof.daemon.webPort.', cause: err },
  );
}
