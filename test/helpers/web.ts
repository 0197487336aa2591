import { request } from 'node:http';
import type { Daemon, DaemonOptions } from '../../lib/daemon/daemon.js';
import type { WebAddress } from '../../lib/net/protocol/bodies.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { startWebBoard } from '../../lib/web/server.js';
import { call, healthy, startChild, startTestDaemon, type ChildDaemon } from './daemon.js';
import { tempRoot } from './root.js';

/** What a request to the web board answered. */
export interface WebAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** An in-process daemon with the agent and operator tools and the web board, opened as `svc web` opens it. */
export async function startWebDaemon(
  root: string,
  options: Partial<DaemonOptions> = {},
): Promise<{ daemon: Daemon; web: WebAddress }> {
  const daemon = await startTestDaemon(root, {
    tools: [...TOOLS, ...OPERATOR_TOOLS],
    web: startWebBoard,
    schedule: false,
    ...options,
  });
  const reply = await call(root, 'POST', '/v1/web', {});
  if (reply.status !== 200) throw new Error(`POST /v1/web answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return { daemon, web: reply.body as WebAddress };
}

/** A daemon process (`svc daemon run`) on a fresh root with its board open, as `svc web` opens it. */
export async function startBoardProcess(): Promise<{ root: string; web: WebAddress; daemon: ChildDaemon }> {
  const root = tempRoot();
  const daemon = startChild(root);
  await healthy(root);
  const reply = await call(root, 'POST', '/v1/web', {});
  if (reply.status !== 200) throw new Error(`POST /v1/web answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return { root, web: reply.body as WebAddress, daemon };
}

/** One request to the board on `port`, with exactly these headers (Host defaults to 127.0.0.1:<port>). */
export function webRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<WebAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, agent: false, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => void (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The headers of a page's own request: the cookie, and on POSTs the token header. */
export function authed(token: string, port: number, post = false): Record<string, string> {
  return {
    cookie: `svc_web_${port}=${token}`,
    ...(post ? { 'x-svc-token': token, 'content-type': 'application/json' } : {}),
  };
}

/**
 * Reads Server-Sent Events from `path` (each passed to `onEvent` as it comes) until `until` returns
 * true for the events so far (or the bound passes); then closes the stream.
 */
export function readEvents(
  port: number,
  path: string,
  headers: Record<string, string>,
  until: (events: Array<{ event: string; id: string; data: any }>) => boolean,
  onEvent?: (event: { event: string; id: string; data: any }) => void,
  ms = 15_000,
): Promise<Array<{ event: string; id: string; data: any }>> {
  return new Promise((resolve, reject) => {
    const events: Array<{ event: string; id: string; data: any }> = [];
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no matching events within ${ms} ms: ${JSON.stringify(events).slice(0, 500)}`));
    }, ms);
    const req = request(
      { host: '127.0.0.1', port, path, agent: false, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let buffer = '';
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          const blocks = buffer.split('\n\n');
          buffer = blocks.pop() ?? '';
          for (const block of blocks) {
            const fields = Object.fromEntries(
              block
                .split('\n')
                .filter((line) => !line.startsWith(':') && line.includes(': '))
                .map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]),
            );
            if (!fields.event) continue;
            events.push({ event: fields.event, id: fields.id ?? '', data: JSON.parse(fields.data ?? 'null') });
            onEvent?.(events.at(-1)!);
          }
          if (until(events)) {
            clearTimeout(timer);
            req.destroy();
            resolve(events);
          }
        });
      },
    );
    req.on('error', (err) => (err.message === 'socket hang up' ? undefined : reject(err)));
    req.end();
  });
}
