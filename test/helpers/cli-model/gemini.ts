// The Gemini API as Gemini CLI speaks it: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` for the
// conversation, `:generateContent` for side calls (the model router), `:countTokens` now and then.
import type { ServerResponse } from 'node:http';
import type { Dialect } from './dialect.js';
import type { ScriptedRequest } from './server.js';

interface Part {
  text?: string;
  functionCall?: { name?: string; args?: unknown; id?: string };
  functionResponse?: { name?: string; id?: string; response?: unknown };
}
interface Content {
  role?: string;
  parts?: Part[];
}
interface Body {
  contents?: Content[];
  systemInstruction?: Content;
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>;
  generationConfig?: { responseMimeType?: string; responseJsonSchema?: Schema; responseSchema?: Schema };
}
interface Schema {
  properties?: Record<string, { type?: string }>;
}

/** MCP tools are offered as `mcp_<server>_<tool>`. */
const SVC_PREFIX = 'mcp_svc_';

/** The gemini dialect. */
export const gemini: Dialect = {
  name: 'gemini',
  matches: (method, path) => method === 'POST' && path.startsWith('/v1beta/models/'),
  read(path, raw) {
    const body = (raw ?? {}) as Body;
    const tools = declared(body)
      .filter((name) => name.startsWith(SVC_PREFIX))
      .map((name) => name.slice(SVC_PREFIX.length));
    if (!path.includes(':streamGenerateContent') || tools.length === 0) return null;
    const results = distinctResults(body.contents ?? []);
    return {
      dialect: 'gemini',
      prompt: promptOf(body),
      toolResults: results.length,
      results,
      tools,
      model: modelOf(path),
      body: raw,
    };
  },
  side(res, path, raw) {
    const body = (raw ?? {}) as Body;
    if (path.includes(':countTokens')) return void json(res, { totalTokens: 1 });
    const chunk = candidate([{ text: sideText(body) }], { prompt: 1, output: 1, cached: 0 }, modelOf(path));
    if (path.includes(':streamGenerateContent')) return void sse(res, [chunk]);
    json(res, chunk);
  },
  reply(res, { request, reply, usage }) {
    const parts: Part[] =
      reply.kind === 'text'
        ? [{ text: reply.text }]
        : [{ functionCall: { name: toolName(request, reply.tool), args: reply.args } }];
    const counts = {
      prompt: usage.inputTokens + usage.cacheReadTokens,
      output: usage.outputTokens,
      cached: usage.cacheReadTokens,
    };
    sse(res, [candidate(parts, counts, request.model)]);
  },
  error: (status, message) => ({ error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } }),
};

// --- internal ---

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

function declared(body: Body): string[] {
  return (body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name ?? ''));
}

/** The name the CLI offered for a tool: svc's under the MCP prefix, any other (a built-in) as the script names it. */
function toolName(request: ScriptedRequest, tool: string): string {
  const names = declared(request.body as Body);
  return names.includes(`${SVC_PREFIX}${tool}`) ? `${SVC_PREFIX}${tool}` : tool;
}

function modelOf(path: string): string {
  return decodeURIComponent(path.slice('/v1beta/models/'.length).split(':')[0] ?? '');
}

function promptOf(body: Body): string {
  const texts = (body.systemInstruction?.parts ?? []).map((p) => p.text ?? '');
  for (const content of body.contents ?? []) {
    if (content.role === 'user') texts.push(...(content.parts ?? []).map((p) => p.text ?? ''));
  }
  return texts.filter(Boolean).join('\n\n');
}

/** Each tool result once: a resumed session repeats `functionResponse` parts, so they are told apart by id. */
function distinctResults(contents: Content[]): string[] {
  const seen = new Map<string, string>();
  for (const part of contents.flatMap((c) => c.parts ?? [])) {
    const result = part.functionResponse;
    if (!result) continue;
    const response = result.response as { output?: unknown } | undefined;
    const text = typeof response?.output === 'string' ? response.output : JSON.stringify(response ?? null);
    const key = result.id ?? `${result.name}:${text}`;
    if (!seen.has(key)) seen.set(key, text);
  }
  return [...seen.values()];
}

/** A plain answer, or a JSON object of the asked schema (the router asks for one). */
function sideText(body: Body): string {
  const config = body.generationConfig;
  if (config?.responseMimeType !== 'application/json') return 'ok';
  const schema = config.responseJsonSchema ?? config.responseSchema;
  const value: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(schema?.properties ?? {})) {
    const type = (prop.type ?? '').toLowerCase();
    value[key] = type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? false : 'ok';
  }
  return JSON.stringify(value);
}

function candidate(parts: Part[], counts: { prompt: number; output: number; cached: number }, model: string) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: counts.prompt,
      candidatesTokenCount: counts.output,
      ...(counts.cached ? { cachedContentTokenCount: counts.cached } : {}),
      totalTokenCount: counts.prompt + counts.output,
    },
    modelVersion: model,
  };
}

function sse(res: ServerResponse, chunks: unknown[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const chunk of chunks) res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  res.end();
}

function json(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}
