import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { describeError, SvcError } from '../core/errors.js';
import { assertObject, queryOf, readJson, sendError, sendJson, type OnFailure } from '../daemon/http/exchange.js';
import { createRouter, type Router } from '../daemon/http/router.js';
import { createLimitedServer } from '../daemon/http/limits.js';
import { WEB_HOST, type WebMount, type WebServer, type WebStarter } from '../daemon/web-port.js';
import { ROUTES } from '../net/protocol/routes.js';
import { resolveAnyId } from '../store/listing/archived.js';
import { listActions, runAction } from './actions.js';
import { readAgentsPage } from './agents.js';
import { startBoardFeed, type BoardFeed } from './board-feed.js';
import { openEventStream, streamBoard } from './board-stream.js';
import { latest, NO_MARKS, toCard } from './cards.js';
import { createGuard, setSecurityHeaders, type Guard } from './guard.js';
import { createStreamBudget, WEB_LIMITS, type StreamBudget } from './limits.js';
import { sendAsset, sendIcon, sendPage, type View } from './page.js';
import { readTaskDetail } from './task-detail.js';
import { followTaskLogs } from './task-logs.js';

/** Starts the web board on 127.0.0.1 (docs/web-board.md): the page, its JSON and event streams, and its actions. */
export const startWebBoard: WebStarter = async (mount, { port, token }) => {
  const feed = startBoardFeed(mount);
  let guard: Guard | null = null;
  let router: Router | null = null;
  const failed = logFailure(mount);
  // No request can throw past its route (a failure is a 500 for that request, logged), and a slow
  // or idle client gets no more than the board's deadlines (./limits.ts).
  const server = createLimitedServer(
    (req, res) => {
      setSecurityHeaders(res);
      if (!guard || !router)
        return sendError(res, new SvcError('unavailable', 'The web board is starting.', 'Reload in a moment.'));
      const admitted = req.method === 'POST' ? guard.admitPost(req) : guard.admit(req);
      if (!admitted.ok)
        return sendJson(res, admitted.status, {
          ok: false,
          error: { code: ADMISSION_CODES[admitted.status], message: admitted.message, hint: admitted.hint },
        });
      if (admitted.setCookies) res.setHeader('set-cookie', admitted.setCookies);
      if (admitted.redirect) return void res.writeHead(303, { location: admitted.redirect }).end();
      (req as IncomingMessage & { actor?: string }).actor = admitted.actor;
      router.handler(req, res);
    },
    WEB_LIMITS,
    { onFailure: failed },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => {
      feed.close();
      reject(err);
    });
    server.listen({ port, host: WEB_HOST, exclusive: true }, () => resolve());
  });
  const bound = (server.address() as { port: number }).port;
  guard = createGuard(bound, token);
  router = buildRoutes(mount, { feed, token, streams: createStreamBudget(), failed });
  return toHandle(server, bound, feed);
};

// --- internal ---

type Req = IncomingMessage & { params?: Record<string, string>; actor?: string };

const ADMISSION_CODES = { 400: 'validation_error', 401: 'unauthorized', 403: 'forbidden', 421: 'misdirected' } as const;

/** Logs a request the board failed to answer (not a client's mistake). */
function logFailure(mount: WebMount): OnFailure {
  return (err, req) =>
    mount.log.error('web.request_failed', {
      method: req.method,
      url: String(req.url).slice(0, 200),
      code: err.code,
      message: err.message,
    });
}

/** What the routes share: the board's feed, the page token, the budget of open streams, the failure log. */
interface RouteParts {
  feed: BoardFeed;
  token: string;
  streams: StreamBudget;
  failed: OnFailure;
}

function buildRoutes(mount: WebMount, { feed, token, streams, failed }: RouteParts): Router {
  const page = (view: View) => (req: Req, res: ServerResponse) =>
    sendPage(res, view, { token, actor: req.actor ?? 'operator', taskId: req.params?.id });
  const router = createRouter(
    (req, res) =>
      sendError(
        res,
        new SvcError(
          'not_found',
          `No page ${req.method} ${(req.url ?? '').split('?')[0]} on the web board.`,
          'Pages: /, /task/<id>, /agents.',
        ),
      ),
    (err, req, res) => sendError(res, err, { req, onFailure: failed }),
  );
  router
    .get('/', page('board'))
    .get('/task/:id', page('task'))
    .get('/agents', page('agents'))
    .get('/assets/:name', (req, res) => sendAsset(res, req.params?.name ?? ''))
    .get('/favicon.svg', (_req, res) => sendIcon(res))
    .get('/favicon.ico', (_req, res) => sendIcon(res))
    .get('/api/meta', (req: Req, res) =>
      sendJson(res, 200, { ok: true, actor: req.actor, actions: listActions(mount) }),
    )
    .get('/api/board/stream', (req, res) => {
      streams.take(res);
      return streamBoard(feed, req, res);
    })
    .get('/api/tasks', (req, res) => sendJson(res, 200, { ok: true, cards: listTerminal(mount, req) }))
    .get('/api/task/:id', async (req, res) =>
      sendJson(res, 200, { ok: true, ...(await readTaskDetail(mount, req.params?.id ?? '')) }),
    )
    .get('/api/task/:id/log', (req, res) => streamLogs(req, res, { mount, streams }))
    .get('/api/agents', async (_req, res) => sendJson(res, 200, { ok: true, ...(await readAgentsPage(mount)) }))
    .get('/api/action/:name', (req) => refuseGet(req))
    .post('/api/action/:name', async (req: Req, res) => {
      const body = assertObject(
        (await readJson(req, '{"taskId": "TASK-..."}')) ?? {},
        'The action',
        '{"taskId": "TASK-..."}',
      );
      sendJson(res, 200, {
        ok: true,
        result: (await runAction(mount, req.params?.name ?? '', { body, actor: req.actor ?? 'operator' })) ?? null,
      });
    });
  // behind the same guard: a scraper sends the token as a bearer
  if (mount.metrics) router.get(ROUTES.metrics.path, mount.metrics);
  return router;
}

function refuseGet(req: IncomingMessage): never {
  throw new SvcError(
    'validation_error',
    `${req.url ?? ''} changes state: it takes POST with the x-svc-token header, never GET.`,
    'Use the buttons of the board page; nothing was changed.',
  );
}

/** `GET /api/tasks?status=done&offset=50&limit=50`: the next cards of a done or cancelled column ("more"). */
function listTerminal(mount: WebMount, req: IncomingMessage) {
  const query = queryOf(req);
  const status = query.get('status');
  if (status !== 'done' && status !== 'cancelled')
    throw new SvcError(
      'validation_error',
      `GET /api/tasks takes status done or cancelled (found ${JSON.stringify(status)}).`,
      'Ask /api/tasks?status=done&offset=50&limit=50.',
    );
  const offset = Math.max(0, Number(query.get('offset')) || 0);
  const limit = Math.min(500, Math.max(1, Number(query.get('limit')) || 50));
  return latest([...mount.index.summaries(status)], offset, limit).map((entry) => toCard(entry, mount.index, NO_MARKS));
}

/** The log lines of one task: its id resolved first (a prefix would match the lines of others). */
async function streamLogs(
  req: Req,
  res: ServerResponse,
  { mount, streams }: { mount: WebMount; streams: StreamBudget },
): Promise<void> {
  const id = await resolveAnyId(mount.store, req.params?.id ?? '');
  streams.take(res);
  const stream = openEventStream(req, res);
  const gone = new AbortController();
  stream.onClose(() => gone.abort());
  void followTaskLogs(mount.paths, id, {
    onLines: (batch) => stream.send({ event: 'lines', id: null, data: batch }),
    signal: gone.signal,
  }).catch((err: unknown) => {
    stream.send({ event: 'failure', id: null, data: { message: describeError(err) } });
  });
}

function toHandle(server: Server, port: number, feed: BoardFeed): WebServer {
  return {
    port,
    close: () =>
      new Promise<void>((done) => {
        feed.close();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
