import type { IncomingMessage, ServerResponse } from 'node:http';
import polka, { type Middleware, type Request } from 'polka';

/** A request handler with the route's `params`. */
export type RouteHandler = (
  req: IncomingMessage & { params?: Record<string, string> },
  res: ServerResponse,
) => void | Promise<void>;

/** A router for listeners above the daemon (the web board): polka stays owned by `daemon/`. */
export interface Router {
  get(path: string, handler: RouteHandler): Router;
  post(path: string, handler: RouteHandler): Router;
  handler(req: IncomingMessage, res: ServerResponse): void;
}

/** A router that answers unmatched requests with `onNoMatch` and thrown errors with `onError`. */
export function createRouter(
  onNoMatch: RouteHandler,
  onError: (err: unknown, req: IncomingMessage, res: ServerResponse) => void,
): Router {
  const app = polka({
    onNoMatch: (req, res) => void onNoMatch(req, res),
    onError: (err, req, res) => onError(err, req, res),
  });
  const wrap =
    (handler: RouteHandler): Middleware =>
    async (req, res) => {
      try {
        await handler(req, res);
      } catch (err) {
        onError(err, req, res);
      }
    };
  const router: Router = {
    get: (path, handler) => {
      app.get(path, wrap(handler));
      return router;
    },
    post: (path, handler) => {
      app.post(path, wrap(handler));
      return router;
    },
    handler: (req, res) => void app.handler(req as Request, res, undefined as never),
  };
  return router;
}
