// The Anthropic Messages API as Claude Code speaks it: `POST /v1/messages?beta=true`, always streamed over SSE, with
// svc's MCP tools named `mcp__<server>__<tool>` in the request's tool list.
import type { ServerResponse } from 'node:http';
import type { Dialect } from './dialect.js';
import type { ScriptedRequest } from './server.js';

/** The anthropic dialect: Claude Code's main requests carry svc's tools; any other request is a side request. */
export const anthropic: Dialect = {
  name: 'anthropic',
  matches: (method, path) => method === 'POST' && path.startsWith('/v1/messages'),
  read: (path, body) => readMessages(path, body),
  side: (res, path, body) => answerSide(res, path, body),
  reply: (res, { request, reply, usage }) => {
    const id = `msg_${request.toolResults}_${Date.now().toString(36)}`;
    const events: [string, unknown][] = [
      [
        'message_start',
        {
          type: 'message_start',
          message: {
            ...{ id, type: 'message', role: 'assistant', model: request.model, content: [] },
            ...{ stop_reason: null, stop_sequence: null },
            usage: {
              input_tokens: usage.inputTokens,
              output_tokens: 0,
              cache_creation_input_tokens: usage.cacheWriteTokens,
              cache_read_input_tokens: usage.cacheReadTokens,
            },
          },
        },
      ],
      ...(reply.kind === 'tool'
        ? toolBlock(cliToolName(request, reply.tool), `toolu_${id}`, JSON.stringify(reply.args))
        : textBlock(reply.text)),
      [
        'message_delta',
        {
          type: 'message_delta',
          delta: { stop_reason: reply.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null },
          usage: { output_tokens: usage.outputTokens },
        },
      ],
      ['message_stop', { type: 'message_stop' }],
    ];
    streamSse(res, events);
  },
  error: (status, message) => ({ type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } }),
};

// --- internal ---

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const SVC_TOOL = /^mcp__.+?__(svc_[a-z0-9_]+)$/;

interface Block {
  type?: string;
  text?: string;
  tool_use_id?: string;
  content?: unknown;
}

function readMessages(path: string, body: unknown): ScriptedRequest | null {
  if (path.includes('count_tokens') || typeof body !== 'object' || body === null) return null;
  const request = body as { model?: string; system?: unknown; messages?: unknown; tools?: unknown };
  const tools = toolNames(request.tools)
    .map((name) => SVC_TOOL.exec(name)?.[1])
    .filter((name): name is string => name !== undefined);
  if (tools.length === 0) return null;
  const texts: string[] = [...textsOf(request.system)];
  const results = new Map<string, string>();
  for (const message of Array.isArray(request.messages) ? request.messages : []) {
    const { role, content } = (message ?? {}) as { role?: string; content?: unknown };
    if (role !== 'user' && role !== 'system') continue;
    texts.push(...textsOf(content));
    for (const block of blocksOf(content)) {
      if (block.type === 'tool_result' && block.tool_use_id && !results.has(block.tool_use_id))
        results.set(block.tool_use_id, textsOf(block.content).join('\n'));
    }
  }
  return {
    dialect: 'anthropic',
    prompt: texts.join('\n\n'),
    toolResults: results.size,
    results: [...results.values()],
    tools,
    model: request.model ?? '',
    body,
  };
}

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((tool) => (tool as { name?: unknown })?.name).filter((n): n is string => typeof n === 'string');
}

function blocksOf(content: unknown): Block[] {
  return Array.isArray(content) ? content.filter((b): b is Block => typeof b === 'object' && b !== null) : [];
}

/** The plain texts of a content (a string, or text blocks); tool results are not texts of the conversation. */
function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  return blocksOf(content)
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string);
}

/** The CLI's name of a tool: svc's tools as the request lists them (`mcp__svc__svc_status`), others as given. */
function cliToolName(request: ScriptedRequest, tool: string): string {
  const offered = toolNames((request.body as { tools?: unknown }).tools);
  return offered.find((name) => SVC_TOOL.exec(name)?.[1] === tool) ?? tool;
}

function toolBlock(name: string, id: string, json: string): [string, unknown][] {
  return [
    [
      'content_block_start',
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id, name, input: {} } },
    ],
    [
      'content_block_delta',
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: json } },
    ],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ];
}

function textBlock(text: string): [string, unknown][] {
  return [
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ];
}

function streamSse(res: ServerResponse, events: [string, unknown][]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

/** A side request (a title, a summary, a token count): a plain "ok", streamed when asked. */
function answerSide(res: ServerResponse, path: string, body: unknown): void {
  if (path.includes('count_tokens')) {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":1}');
    return;
  }
  const { model = '', stream = false } = (body ?? {}) as { model?: string; stream?: boolean };
  const usage = { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = { id: 'msg_side', type: 'message', role: 'assistant', model, stop_sequence: null };
  if (!stream) {
    const whole = { ...message, content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(whole));
    return;
  }
  streamSse(res, [
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage } }],
    ...textBlock('ok'),
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}
