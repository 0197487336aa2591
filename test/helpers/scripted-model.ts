import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat completion request the model server answered, and what it answered. */
export interface ModelTurn {
  tools: string[];
  reply: string;
}

/** A scripted OpenAI-compatible model server on 127.0.0.1: what a gateway's agents talk to in tests. */
export interface ScriptedModel {
  /** The base URL to configure as the provider's `baseUrl` (ends with `/v1`). */
  url: string;
  turns: ModelTurn[];
  /** Requests held open (a prompt matching `hold`): how many are waiting now, and how many their client closed. */
  held: { open: number; closedByClient: number };
  close(): Promise<void>;
}

const COMPLETE = /svc_task_complete\(\{ taskId: "([^"]+)", sessionId: "([^"]+)"/;

/**
 * Starts the scripted model. A conversation whose prompt holds svc's completion instruction
 * (`svc_task_complete({ taskId: "...", sessionId: "..." ...`) is answered with a call of that tool:
 * directly when the tool is offered by name, else through the gateway's tool search (`tool_search`,
 * then `tool_call` with the id the search returned). Anything else gets a short final answer.
 */
export async function startScriptedModel(options: { hold?: RegExp } = {}): Promise<ScriptedModel> {
  const turns: ModelTurn[] = [];
  const held = { open: 0, closedByClient: 0 };
  const server = createServer(
    (req, res) => void answer(req, res, turns, options.hold ? { pattern: options.hold, held } : undefined),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    turns,
    held,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// --- internal ---

interface Message {
  role: string;
  content?: unknown;
}

interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  turns: ModelTurn[],
  hold?: { pattern: RegExp; held: ScriptedModel['held'] },
): Promise<void> {
  let raw = '';
  for await (const chunk of req) raw += String(chunk);
  if (req.method === 'GET' && req.url?.endsWith('/models'))
    return json(res, { object: 'list', data: [{ id: 'scripted', object: 'model' }] });
  const body = parse(raw);
  const messages = (body.messages ?? []) as Message[];
  if (hold && messages.some((m) => hold.pattern.test(textOf(m.content)))) {
    // A run that never ends on its own: the answer waits until the client gives up on it (an aborted run).
    hold.held.open++;
    turns.push({ tools: [], reply: 'held' });
    res.on('close', () => {
      hold.held.open--;
      hold.held.closedByClient++;
    });
    return;
  }
  const tools = ((body.tools ?? []) as { function?: { name?: string }; name?: string }[]).map(
    (t) => t.function?.name ?? t.name ?? '',
  );
  const call = nextCall(messages, tools);
  turns.push({ tools, reply: call ? `${call.name} ${JSON.stringify(call.args)}` : 'text' });
  const message = call
    ? {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `call_${turns.length}`,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          },
        ],
      }
    : { role: 'assistant', content: 'Finished.' };
  const finish = call ? 'tool_calls' : 'stop';
  if (!body.stream)
    return json(res, {
      id: 'scripted',
      object: 'chat.completion',
      created: 0,
      model: 'scripted',
      choices: [{ index: 0, message, finish_reason: finish }],
      usage: USAGE,
    });
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const delta = call
    ? { role: 'assistant', tool_calls: message.tool_calls!.map((c, index) => ({ index, ...c })) }
    : message;
  res.write(chunk({ index: 0, delta, finish_reason: null }));
  res.write(chunk({ index: 0, delta: {}, finish_reason: finish }, USAGE));
  res.end('data: [DONE]\n\n');
}

/** The tool call the script makes next, or nothing (a final answer). */
function nextCall(messages: Message[], tools: string[]): ToolCall | undefined {
  // A retried task runs again in the same gateway session: its latest prompt holds the live lease token.
  const at = messages.findLastIndex((m) => m.role !== 'tool' && COMPLETE.test(textOf(m.content)));
  if (at < 0) return undefined;
  const found = COMPLETE.exec(textOf(messages[at]!.content))!;
  const args = { taskId: found[1], sessionId: found[2], summary: 'Done by the scripted model.' };
  const results = messages
    .slice(at + 1)
    .filter((m) => m.role === 'tool')
    .map((m) => textOf(m.content));
  const direct = tools.find((name) => name.endsWith('svc_task_complete'));
  if (direct) return results.length === 0 ? { name: direct, args } : undefined;
  if (!tools.includes('tool_search') || !tools.includes('tool_call')) return undefined;
  if (results.length === 0) return { name: 'tool_search', args: { query: 'svc_task_complete' } };
  if (results.length > 1) return undefined;
  const id = /"id": ?"([^"]*svc_task_complete)"/.exec(results[0]!)?.[1] ?? 'svc_task_complete';
  return { name: 'tool_call', args: { id, args } };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part?.text ?? '').join('\n');
  return '';
}

const USAGE = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

function chunk(choice: unknown, usage?: unknown): string {
  return `data: ${JSON.stringify({ id: 'scripted', object: 'chat.completion.chunk', created: 0, model: 'scripted', choices: [choice], ...(usage ? { usage } : {}) })}\n\n`;
}

function json(res: ServerResponse, value: unknown): void {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(value));
}

function parse(raw: string): Record<string, unknown> {
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return {};
  }
}
