// Claude Code's stream read line by line: small lines of the shapes 2.1.x prints, trimmed to the fields that matter.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { claudeCode } from '../../../lib/adapters/runtimes/claude-code.js';
import type { RunEvent } from '../../../lib/adapters/runtimes/runtime.js';

function read(...lines: unknown[]): RunEvent[] {
  const parser = claudeCode.parser();
  return lines.flatMap((line) => parser.line(typeof line === 'string' ? line : JSON.stringify(line)));
}

const tokens = (input: number, output: number, costUsd: number | null) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd,
});

const parser = suite('adapters.runtimes.claudeCode.parser');

parser('lines that are not its JSON, and types or fields it does not know, give nothing', () => {
  assert.equal(read('', 'Warning: no stdin data received', '[1,2]', '{"no":"type"}', '{"type":"x', 'null'), []);
  assert.equal(read({ type: 'future_event', data: 1 }, { type: 'system', subtype: 'hook_started' }), []);
  const plain = { type: 'assistant', error: null, future: {}, message: { content: [{ type: 'text', text: 'Hi.' }] } };
  assert.equal(read(plain), [{ kind: 'text', text: 'Hi.' }], 'a null error is no error');
  assert.equal(read({ type: 'stream_event', event: { type: 'content_block_delta', delta: { text: 'x' } } }), []);
});

parser('the init line gives the session and the model; svc tools get their svc names, others keep theirs', () => {
  const events = read(
    { type: 'system', subtype: 'init', session_id: 's-1', model: 'claude-x', tools: [] },
    {
      type: 'assistant',
      message: {
        id: 'm1',
        content: [
          { type: 'thinking', thinking: '...' },
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 't1', name: 'mcp__svc__svc_status', input: { compact: true } },
          { type: 'tool_use', id: 't2', name: 'mcp__github__search', input: {} },
        ],
      },
    },
    {
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: '{}' }] }] },
    },
    {
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 't2', content: 'boom', is_error: true }] },
    },
  );
  assert.equal(events.slice(0, 5), [
    { kind: 'session', id: 's-1' },
    { kind: 'model', model: 'claude-x' },
    { kind: 'text', text: 'Looking.' },
    { kind: 'tool_call', tool: 'svc_status', args: '{"compact":true}' },
    { kind: 'tool_call', tool: 'mcp__github__search', args: '{}' },
  ]);
  assert.equal(events.slice(-2), [
    { kind: 'tool_result', tool: 'svc_status', ok: true, text: '{}' },
    { kind: 'tool_result', tool: 'mcp__github__search', ok: false, text: 'boom' },
  ]);
});

parser('usage is cumulative per response: input and cache from message_start, output from message_delta', () => {
  const start = (id: string) => ({
    type: 'stream_event',
    event: {
      type: 'message_start',
      message: {
        id,
        usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 500, cache_creation_input_tokens: 7 },
      },
    },
  });
  const delta = (id: string) => ({
    type: 'stream_event',
    api_message_id: id,
    event: { type: 'message_delta', usage: { output_tokens: 30 } },
  });
  const assistant = { type: 'assistant', message: { id: 'a', content: [], usage: { input_tokens: 10 } } };
  const usages = read(start('a'), assistant, delta('a'), start('b'), delta('b')).filter((e) => e.kind === 'usage');
  assert.equal(usages, [
    {
      kind: 'usage',
      usage: { inputTokens: 10, outputTokens: 30, cacheReadTokens: 500, cacheWriteTokens: 7, costUsd: null },
    },
    {
      kind: 'usage',
      usage: { inputTokens: 20, outputTokens: 60, cacheReadTokens: 1000, cacheWriteTokens: 14, costUsd: null },
    },
  ]);
});

parser('without partial messages, each response counts once from its assistant lines', () => {
  const line = (text: string) => ({
    type: 'assistant',
    message: { id: 'm1', content: [{ type: 'text', text }], usage: { input_tokens: 5, output_tokens: 2 } },
  });
  const usages = read(line('one'), line('two')).filter((e) => e.kind === 'usage');
  assert.equal(usages, [{ kind: 'usage', usage: tokens(5, 2, null) }]);
});

parser("a resumed session's result gives the run's own tokens and cost, not the session's totals", () => {
  const result = {
    type: 'result',
    subtype: 'success',
    is_error: false,
    total_cost_usd: 0.0032,
    usage: { input_tokens: 100, output_tokens: 20 },
    modelUsage: { 'claude-x': { inputTokens: 400, outputTokens: 80, costUSD: 0.0032 } },
    model_usage_since_last_result: { 'claude-x': { inputTokens: 100, outputTokens: 20, costUSD: 0.0008 } },
  };
  assert.equal(read(result), [
    { kind: 'usage', usage: tokens(100, 20, 0.0008), model: 'claude-x' },
    { kind: 'result', ok: true },
  ]);
  const { model_usage_since_last_result: _, ...older } = result;
  assert.equal(read(older)[0], { kind: 'usage', usage: tokens(100, 20, null) }, 'a session total is not the run cost');
  const fresh = { ...older, modelUsage: { 'claude-x': { inputTokens: 100, outputTokens: 20 } } };
  assert.equal(read(fresh)[0], { kind: 'usage', usage: tokens(100, 20, 0.0032) });
});

parser('denials come from the permission_denied line, or from the result when no line named them', () => {
  const denied = {
    type: 'system',
    subtype: 'permission_denied',
    tool_name: 'Bash',
    tool_use_id: 't1',
    message: 'no shell',
  };
  const result = {
    type: 'result',
    subtype: 'success',
    permission_denials: [
      { tool_name: 'Bash', tool_use_id: 't1' },
      { tool_name: 'mcp__svc__svc_task_complete', tool_use_id: 't2' },
    ],
  };
  assert.equal(
    read(denied, result).filter((e) => e.kind === 'denied'),
    [
      { kind: 'denied', tool: 'Bash', message: 'no shell' },
      { kind: 'denied', tool: 'svc_task_complete', message: 'permission denied: svc_task_complete' },
    ],
  );
});

parser('errors: an API error message, a retry notice, a failed result in the CLI words', () => {
  const events = read(
    { type: 'system', subtype: 'api_retry', attempt: 1, max_retries: 10, error_status: 529, error: 'overloaded' },
    {
      type: 'assistant',
      error: 'server_error',
      is_api_error_message: true,
      message: { id: 'x', content: [{ type: 'text', text: 'API Error: 500 down' }] },
    },
    { type: 'result', subtype: 'success', is_error: true, result: 'API Error: 500 down' },
    { type: 'result', subtype: 'error_max_turns', is_error: true, num_turns: 3 },
    { type: 'result', subtype: 'error_during_execution', is_error: true, result: null, errors: ['No conversation'] },
  );
  assert.equal(
    events.filter((e) => e.kind !== 'usage'),
    [
      { kind: 'error', message: 'API error 529 (overloaded), retrying: attempt 1 of 10', retrying: true },
      { kind: 'error', message: 'API Error: 500 down' },
      { kind: 'result', ok: false, message: 'API Error: 500 down' },
      { kind: 'result', ok: false, message: 'Claude Code stopped at its turn limit' },
      { kind: 'result', ok: false, message: 'No conversation' },
    ],
  );
});

parser.run();
