import type { IncomingMessage, ServerResponse } from 'node:http';
import { queryOf } from '../daemon/http/exchange.js';
import type { BoardFeed, SentChange } from './board-feed.js';

/** A comment line this often keeps idle streams open through proxies and tells a dead page apart. */
const HEARTBEAT_MS = 15_000;

/** One Server-Sent Event: its name, its id (none: null), its data, and that data's JSON when already serialised. */
export interface EventMessage {
  event: string;
  id: string | null;
  data: unknown;
  serialised?: string;
}

/** Opens a Server-Sent Events answer (the browser's EventSource reconnects after 1 s on its own). */
export function openEventStream(
  req: IncomingMessage,
  res: ServerResponse,
): { send(message: EventMessage): void; onClose(fn: () => void): void } {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
  if (req.method === 'HEAD')
    res.end(); // the headers alone: a stream nobody reads holds nothing
  else res.write('retry: 1000\n\n');
  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  req.socket.setTimeout(0);
  const closers: Array<() => void> = [() => clearInterval(heartbeat)];
  res.on('close', () => closers.forEach((fn) => fn()));
  return {
    send({ event, id, data, serialised }) {
      if (!res.writableEnded)
        res.write(
          `${id === null ? '' : `id: ${id}\n`}event: ${event}\ndata: ${serialised ?? JSON.stringify(data)}\n\n`,
        );
    },
    onClose: (fn) => void closers.push(fn),
  };
}

/**
 * `GET /api/board/stream`: the changes after the page's last event id (`Last-Event-ID`, sent by
 * EventSource on reconnect, or `?last=`), or a snapshot when that id is of another daemon start or
 * too old; then every change as it comes. Ids are `<epoch>.<seq>`, seq monotonic within an epoch.
 */
export function streamBoard(feed: BoardFeed, req: IncomingMessage, res: ServerResponse): void {
  const stream = openEventStream(req, res);
  const send = ({ change, data }: SentChange) =>
    stream.send({ event: 'change', id: `${feed.epoch}.${change.seq}`, data: change, serialised: data });
  const last = toLast(req);
  const missed = last && last.epoch === feed.epoch ? feed.since(last.seq) : null;
  if (missed) missed.forEach(send);
  else {
    const snapshot = feed.snapshot();
    stream.send({ event: 'snapshot', id: `${feed.epoch}.${snapshot.seq}`, data: snapshot });
  }
  stream.onClose(feed.subscribe(send));
}

// --- internal ---

function toLast(req: IncomingMessage): { epoch: string; seq: number } | null {
  const header = req.headers['last-event-id'];
  const text = (Array.isArray(header) ? header[0] : header) ?? queryOf(req).get('last') ?? '';
  const match = /^([0-9a-f]+)\.(\d+)$/.exec(text);
  return match ? { epoch: match[1]!, seq: Number(match[2]) } : null;
}
