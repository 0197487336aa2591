import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got: method, path, headers (lower-case names) and the raw body. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
  at: number;
}

/**
 * How the receiver answers one request: a status (and optional body, headers), after `delayMs`; `hang` never answers
 * (the connection stays open until the receiver closes or the client gives up).
 */
export type ReceiverReply =
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | 'hang';

/** A real HTTP receiver on 127.0.0.1 (a port of its own): records every request, answers as scripted. */
export interface HttpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** The replies of the next requests, in order; once used up, `fallback` answers. */
  script(...replies: ReceiverReply[]): void;
  /** The reply of every request the script does not cover (default 200). */
  fallback(reply: ReceiverReply): void;
  /** Resolves once `count` requests arrived (their bodies read), failing after `ms`. */
  waitFor(count: number, ms?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** Starts a receiver; every request is recorded once its body is read, then answered as scripted. */
export async function startReceiver(): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const queue: ReceiverReply[] = [];
  let otherwise: ReceiverReply = { status: 200, body: 'ok' };
  const waiters = new Set<() => void>();
  const hung = new Set<ServerResponse>();
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: flatHeaders(req),
      body,
      json: parseJson(body),
      at: Date.now(),
    });
    for (const wake of [...waiters]) wake();
    answer(res, queue.shift() ?? otherwise, hung);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    script: (...replies) => void queue.push(...replies),
    fallback: (reply) => {
      otherwise = reply;
    },
    waitFor: (count, ms = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(requests.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${ms} ms waiting for ${count} requests (got ${requests.length})`));
        }, ms);
        waiters.add(check);
        check();
      }),
    close: async () => {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(res: ServerResponse, reply: ReceiverReply, hung: Set<ServerResponse>): void {
  if (reply === 'hang') {
    hung.add(res);
    res.on('close', () => hung.delete(res));
    return;
  }
  const send = () => {
    if (!res.destroyed) res.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? '');
  };
  if (reply.delayMs) setTimeout(send, reply.delayMs);
  else send();
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
