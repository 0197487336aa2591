// A scripted model server for the agent CLIs (docs/agent-runtimes.md): one HTTP server on 127.0.0.1 that speaks the
// Anthropic Messages API (Claude Code), the OpenAI Responses API (Codex) and the Gemini API (Gemini CLI), each
// over SSE, chosen by the request's path. It keeps no state between requests: what it answers is decided by a
// script from the request (the prompt, the tool results so far), so retries and resumed sessions stay correct.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dialect, DialectName } from './dialect.js';
import { DIALECTS } from './dialects.js';

/** Tokens one scripted response reports. */
export interface ScriptedUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** A request of a CLI's main conversation, read into the same words for every dialect. */
export interface ScriptedRequest {
  dialect: DialectName;
  /** Every user and system text of the conversation, in order, joined by blank lines. */
  prompt: string;
  /** The distinct tool results already in the conversation (the step the conversation is at). */
  toolResults: number;
  /** The results' texts, in order. */
  results: string[];
  /** svc's tools the CLI offers, by their svc names (`svc_task_complete`). */
  tools: string[];
  model: string;
  body: unknown;
}

/** What the script answers: a call of one of svc's tools, a final text, an HTTP error, or nothing (held open). */
export type Reply =
  | { kind: 'tool'; tool: string; args: Record<string, unknown> }
  | { kind: 'text'; text: string }
  | { kind: 'error'; status: number; message: string }
  | { kind: 'hang' };

/** Decides the answer to a main request (a promise holds the request until it settles: a slow answer). */
export type Script = (request: ScriptedRequest) => Reply | Promise<Reply>;

/** One request the server answered (side requests too), for assertions. */
export interface ServedRequest {
  dialect: DialectName | null;
  path: string;
  main: boolean;
  request?: ScriptedRequest;
  reply?: Reply;
}

export interface CliModelServer {
  /** `http://127.0.0.1:<port>`: each dialect's base URL is built from it (`baseUrlFor`). */
  url: string;
  served: ServedRequest[];
  /** Replaces the script (each test sets its own). */
  script: Script;
  /** Tokens each answer reports (default 100 in, 20 out, no cache). */
  usage: ScriptedUsage;
  close(): Promise<void>;
}

/** The base URL an agent's `baseUrl` names for a dialect (Codex's provider URL ends in `/v1`). */
export function baseUrlFor(server: Pick<CliModelServer, 'url'>, dialect: DialectName): string {
  return dialect === 'responses' ? `${server.url}/v1` : server.url;
}

const COMPLETE = /svc_task_complete\(\{ taskId: "([^"]+)", sessionId: "([^"]+)"/g;

/**
 * The default script: the task's completion, read from the last completion instruction in the prompt (a resumed
 * session's latest prompt names the new session), while the conversation has fewer tool results than completion
 * instructions (one call per prompt); then a final text.
 */
export const completeTask: Script = (request) => completeWith({})(request);

/** `completeTask` with more arguments of the completion (an outcome, blockers, a summary). */
export function completeWith(extra: Record<string, unknown>): Script {
  return (request) => {
    const matches = [...request.prompt.matchAll(COMPLETE)];
    const last = matches.at(-1);
    if (!last || request.toolResults >= matches.length) return { kind: 'text', text: 'Done.' };
    return {
      kind: 'tool',
      tool: 'svc_task_complete',
      args: { taskId: last[1], sessionId: last[2], summary: 'scripted work done', ...extra },
    };
  };
}

/** Starts the server on a free port of 127.0.0.1 with `script` (default `completeTask`). */
export async function startCliModel(script: Script = completeTask): Promise<CliModelServer> {
  const sockets = new Set<import('node:net').Socket>();
  const state: CliModelServer = {
    url: '',
    served: [],
    script,
    usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => void handle(state, req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

// --- internal ---

async function handle(state: CliModelServer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = req.url ?? '/';
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const dialect = DIALECTS.find((d) => d.matches(req.method ?? 'GET', path));
  if (!dialect) {
    state.served.push({ dialect: null, path, main: false });
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    return;
  }
  let body: unknown = null;
  try {
    body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : null;
  } catch {
    res.writeHead(400).end('bad json');
    return;
  }
  await answer(state, { dialect, path, body }, res);
}

async function answer(
  state: CliModelServer,
  call: { dialect: Dialect; path: string; body: unknown },
  res: ServerResponse,
) {
  const { dialect, path, body } = call;
  const request = dialect.read(path, body);
  if (!request) {
    state.served.push({ dialect: dialect.name, path, main: false });
    dialect.side(res, path, body);
    return;
  }
  const reply = await state.script(request);
  state.served.push({ dialect: dialect.name, path, main: true, request, reply });
  if (reply.kind === 'hang') return; // held open until the client or close() ends it
  if (reply.kind === 'error') {
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(dialect.error(reply.status, reply.message)));
    return;
  }
  dialect.reply(res, { request, reply, usage: state.usage });
}
