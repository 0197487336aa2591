import { type ParserState, recordOf, type StreamMessage, stringOf } from './claude-code-json.js';
import { toSvcToolName } from './claude-code-invocation.js';
import { resultEvents } from './claude-code-result.js';
import { type ApiUsage, createResponseUsage } from './claude-code-usage.js';
import type { RunEvent, StreamParser } from './runtime.js';

/**
 * Reads `claude -p --output-format stream-json --verbose --include-partial-messages`: one JSON object a line, by
 * `type` (`system`, `stream_event`, `assistant`, `user`, `result`); unknown types and fields are passed over.
 */
export function claudeParser(): StreamParser {
  const state: ParserState = { usage: createResponseUsage(), tools: new Map(), denied: new Set() };
  return {
    line(text) {
      const message = parseObject(text);
      if (!message) return [];
      switch (message.type) {
        case 'system':
          return systemEvents(state, message);
        case 'stream_event':
          return streamEvents(state, message);
        case 'assistant':
          return assistantEvents(state, message);
        case 'user':
          return userEvents(state, message);
        case 'result':
          return resultEvents(state, message);
        default:
          return [];
      }
    },
  };
}

// --- internal ---

function parseObject(text: string): StreamMessage | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    const value = recordOf(JSON.parse(trimmed));
    return typeof value.type === 'string' ? (value as StreamMessage) : null;
  } catch {
    return null;
  }
}

function systemEvents(state: ParserState, message: StreamMessage): RunEvent[] {
  switch (message.subtype) {
    case 'init': {
      const events: RunEvent[] = [];
      const session = stringOf(message.session_id);
      if (session) events.push({ kind: 'session', id: session });
      const model = stringOf(message.model);
      if (model) events.push({ kind: 'model', model });
      return events;
    }
    case 'api_retry': {
      const status = typeof message.error_status === 'number' ? ` ${message.error_status}` : '';
      const what = stringOf(message.error) ?? 'request failed';
      const attempt = `attempt ${String(message.attempt ?? '?')} of ${String(message.max_retries ?? '?')}`;
      return [{ kind: 'error', message: `API error${status} (${what}), retrying: ${attempt}`, retrying: true }];
    }
    case 'permission_denied': {
      const tool = stringOf(message.tool_name) ?? 'unknown';
      const id = stringOf(message.tool_use_id);
      if (id) state.denied.add(id);
      return [{ kind: 'denied', tool: toSvcToolName(tool), message: stringOf(message.message) ?? 'permission denied' }];
    }
    default:
      return [];
  }
}

function streamEvents(state: ParserState, message: StreamMessage): RunEvent[] {
  const event = recordOf(message.event);
  if (event.type === 'message_start') {
    const start = recordOf(event.message);
    state.usage.start(stringOf(start.id) ?? stringOf(message.api_message_id), start.usage as ApiUsage);
    return [];
  }
  if (event.type !== 'message_delta') return [];
  state.usage.update(stringOf(message.api_message_id), event.usage as ApiUsage);
  return [{ kind: 'usage', usage: state.usage.total() }];
}

function assistantEvents(state: ParserState, message: StreamMessage): RunEvent[] {
  const body = recordOf(message.message);
  const blocks = Array.isArray(body.content) ? body.content.map(recordOf) : [];
  // an API error comes as a synthetic assistant message whose text is the CLI's message
  if (typeof message.error === 'string' || message.is_api_error_message === true) {
    const text = blocks.map((block) => stringOf(block.text) ?? '').join('\n');
    return [{ kind: 'error', message: text || `API error: ${stringOf(message.error) ?? 'unknown'}` }];
  }
  const events: RunEvent[] = [];
  for (const block of blocks) {
    if (block.type === 'text' && stringOf(block.text)) events.push({ kind: 'text', text: block.text as string });
    if (block.type !== 'tool_use') continue;
    const tool = toSvcToolName(stringOf(block.name) ?? 'unknown');
    const id = stringOf(block.id);
    if (id) state.tools.set(id, tool);
    events.push({ kind: 'tool_call', tool, args: JSON.stringify(block.input ?? {}) });
  }
  // without partial messages, a response's usage is only in its assistant lines
  if (
    typeof body.usage === 'object' &&
    body.usage !== null &&
    state.usage.start(stringOf(body.id), body.usage as ApiUsage)
  )
    events.push({ kind: 'usage', usage: state.usage.total() });
  return events;
}

function userEvents(state: ParserState, message: StreamMessage): RunEvent[] {
  const content = recordOf(message.message).content;
  if (!Array.isArray(content)) return [];
  const events: RunEvent[] = [];
  for (const block of content.map(recordOf)) {
    if (block.type !== 'tool_result') continue;
    const tool = state.tools.get(stringOf(block.tool_use_id) ?? '') ?? 'unknown';
    events.push({ kind: 'tool_result', tool, ok: block.is_error !== true, text: textOf(block.content) });
  }
  return events;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => stringOf(recordOf(part).text))
    .filter((part) => part !== undefined)
    .join('\n');
}
