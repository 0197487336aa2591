// The OpenAI Responses API as Codex speaks it: `POST <base>/responses` streamed over SSE. svc's MCP tools come as a
// namespace (`{type:"namespace", name:"mcp__svc", tools:[...]}`) and a call names the tool and its namespace apart;
// a flat `mcp__svc__<tool>` function is read too. Tool results come back as `function_call_output` items.
import type { ServerResponse } from 'node:http';
import type { Dialect } from './dialect.js';
import type { Reply, ScriptedRequest, ScriptedUsage } from './server.js';

/** The responses dialect: Codex's main requests, its side requests answered plainly. */
export const responses: Dialect = {
  name: 'responses',
  matches: (method, path) => /^\/v1\/(responses|models)(\/|\?|$)/.test(path) && (method === 'POST' || method === 'GET'),
  read: (path, body) => (path.startsWith('/v1/responses') ? readRequest(body) : null),
  side: (res, path, body) => {
    if (!path.startsWith('/v1/responses')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[],"models":[]}');
      return;
    }
    stream(res, { model: modelOf(body), items: [messageItem('ok')], usage: NO_TOKENS });
  },
  reply: (res, { request, reply, usage }) => {
    const item = reply.kind === 'text' ? messageItem(reply.text) : callItem(request, reply);
    stream(res, { model: request.model, items: [item], usage });
  },
  error: (status, message) => ({
    error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null },
  }),
};

// --- internal ---

type Item = Record<string, unknown>;
const NO_TOKENS: ScriptedUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
const SVC_NAMESPACE = 'mcp__svc';
let counter = 0;

function readRequest(body: unknown): ScriptedRequest | null {
  const b = (body ?? {}) as { model?: unknown; instructions?: unknown; input?: unknown; tools?: unknown };
  const tools = svcToolsOf(b.tools);
  if (tools.size === 0) return null;
  const input = Array.isArray(b.input) ? (b.input as Item[]) : [];
  const texts = typeof b.instructions === 'string' ? [b.instructions] : [];
  const outputs = new Map<string, string>();
  for (const item of input) {
    if (item.type === 'message' && item.role !== 'assistant') texts.push(...textsOf(item.content));
    if (item.type === 'function_call_output' && !outputs.has(String(item.call_id)))
      outputs.set(String(item.call_id), typeof item.output === 'string' ? item.output : JSON.stringify(item.output));
  }
  return {
    dialect: 'responses',
    prompt: texts.join('\n\n'),
    toolResults: outputs.size,
    results: [...outputs.values()],
    tools: [...tools.keys()],
    model: modelOf(body),
    body,
  };
}

/** svc's tools offered, by svc name, each with how the call names it (namespace and name). */
function svcToolsOf(tools: unknown): Map<string, { name: string; namespace?: string }> {
  const found = new Map<string, { name: string; namespace?: string }>();
  for (const tool of Array.isArray(tools) ? (tools as Item[]) : []) {
    if (tool.type === 'namespace' && tool.name === SVC_NAMESPACE && Array.isArray(tool.tools))
      for (const inner of tool.tools as Item[])
        if (typeof inner.name === 'string') found.set(inner.name, { name: inner.name, namespace: SVC_NAMESPACE });
    if (typeof tool.name === 'string' && tool.name.startsWith(`${SVC_NAMESPACE}__`))
      found.set(tool.name.slice(SVC_NAMESPACE.length + 2), { name: tool.name });
  }
  return found;
}

function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return (content as Item[]).flatMap((part) => (typeof part.text === 'string' ? [part.text] : []));
}

function modelOf(body: unknown): string {
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === 'string' ? model : 'scripted-model';
}

function messageItem(text: string): Item {
  return {
    type: 'message',
    role: 'assistant',
    id: `msg_${++counter}`,
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

/** A call of svc's tool as the request names it; another tool (a CLI's own) by its plain name. */
function callItem(request: ScriptedRequest, reply: Extract<Reply, { kind: 'tool' }>): Item {
  const named = svcToolsOf((request.body as { tools?: unknown }).tools).get(reply.tool) ?? { name: reply.tool };
  return {
    type: 'function_call',
    id: `fc_${++counter}`,
    call_id: `call_${counter}`,
    name: named.name,
    ...(named.namespace ? { namespace: named.namespace } : {}),
    arguments: JSON.stringify(reply.args),
    status: 'completed',
  };
}

function stream(res: ServerResponse, answer: { model: string; items: Item[]; usage: ScriptedUsage }): void {
  const id = `resp_${++counter}`;
  const { usage } = answer;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  send(res, { type: 'response.created', response: { id, model: answer.model, status: 'in_progress' } });
  answer.items.forEach((item, index) => {
    send(res, { type: 'response.output_item.added', output_index: index, item });
    if (item.type === 'message')
      send(res, { type: 'response.output_text.delta', output_index: index, delta: textsOf(item.content).join('') });
    send(res, { type: 'response.output_item.done', output_index: index, item });
  });
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens; // OpenAI counts every prompt token
  const tokens = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens, cache_write_tokens: usage.cacheWriteTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + usage.outputTokens,
  };
  send(res, { type: 'response.completed', response: { id, model: answer.model, status: 'completed', usage: tokens } });
  res.end();
}

function send(res: ServerResponse, event: { type: string } & Item): void {
  res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}
