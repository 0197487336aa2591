// Codex's `--json` lines as 0.171 prints them, read into run events.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { codex, codexInvocation } from '../../../lib/adapters/runtimes/codex.js';
import { codexParser } from '../../../lib/adapters/runtimes/codex-stream.js';
import type { InvocationContext } from '../../../lib/adapters/runtimes/runtime.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const stream = suite('adapters.runtimes.codexParser');
stream.after.each(cleanRoots);

const CALL = {
  id: 'item_1',
  type: 'mcp_tool_call',
  server: 'svc',
  tool: 'svc_status',
  arguments: { compact: true },
  result: null,
  error: null,
  status: 'in_progress',
};

stream('a tool call is told once, when it starts, and its result when it completes', () => {
  const parser = codexParser();
  assert.equal(parser.line(JSON.stringify({ type: 'item.started', item: CALL })), [
    { kind: 'tool_call', tool: 'svc_status', args: '{"compact":true}' },
  ]);
  const done = { ...CALL, status: 'completed', result: { content: [{ type: 'text', text: '{}' }], is_error: true } };
  assert.equal(parser.line(JSON.stringify({ type: 'item.completed', item: done })), [
    { kind: 'tool_result', tool: 'svc_status', ok: false, text: '{}' },
  ]);
});

stream('another MCP server’s tool keeps Codex’s name for it', () => {
  const item = { ...CALL, server: 'docs', tool: 'search', status: 'completed', result: { content: [] } };
  assert.equal(codexParser().line(JSON.stringify({ type: 'item.completed', item })), [
    { kind: 'tool_call', tool: 'mcp__docs__search', args: '{"compact":true}' },
    { kind: 'tool_result', tool: 'mcp__docs__search', ok: true, text: '' },
  ]);
});

stream('a shell command Codex declined is denied; one that ran and failed is a failed result', () => {
  const command = { id: 'item_2', type: 'command_execution', command: "/bin/bash -lc 'rm -rf build'" };
  const declined = { ...command, aggregated_output: '', exit_code: null, status: 'declined' };
  assert.equal(codexParser().line(JSON.stringify({ type: 'item.completed', item: declined })), [
    { kind: 'tool_call', tool: 'exec_command', args: JSON.stringify({ cmd: command.command }) },
    { kind: 'denied', tool: 'exec_command', message: `declined: ${command.command}` },
    { kind: 'tool_result', tool: 'exec_command', ok: false, text: 'declined' },
  ]);
  const failed = { ...command, aggregated_output: 'rm: busy\n', exit_code: 1, status: 'failed' };
  assert.equal(
    codexParser()
      .line(JSON.stringify({ type: 'item.completed', item: failed }))
      .at(-1),
    {
      kind: 'tool_result',
      tool: 'exec_command',
      ok: false,
      text: 'rm: busy\n',
    },
  );
});

stream('reconnecting notices are retries; a failed turn is the result, with its message', () => {
  const parser = codexParser();
  assert.equal(parser.line('{"type":"error","message":"Reconnecting... 2/5 (stream disconnected)"}'), [
    { kind: 'error', message: 'Reconnecting... 2/5 (stream disconnected)', retrying: true },
  ]);
  assert.equal(parser.line('{"type":"turn.failed","error":{"message":"unexpected status 401"}}'), [
    { kind: 'result', ok: false, message: 'unexpected status 401' },
  ]);
});

stream('lines that are not Codex’s JSON, unknown events and unknown items give nothing', () => {
  const parser = codexParser();
  for (const line of ['', 'Reading additional input from stdin...', '{"type":', '[1,2]', '{"type":"turn.started"}'])
    assert.equal(parser.line(line), [], line);
  assert.equal(parser.line('{"type":"item.completed","item":{"id":"i","type":"reasoning","text":"hm"}}'), []);
  assert.equal(parser.line('{"type":"thread.future","thread_id":7}'), []);
});

stream('a resumed thread’s usage is counted from its total before the run', () => {
  const parser = codexParser({ input_tokens: 300, cached_input_tokens: 100, output_tokens: 60 });
  const usage = { input_tokens: 450, cached_input_tokens: 150, cache_write_input_tokens: 20, output_tokens: 90 };
  assert.equal(parser.line(JSON.stringify({ type: 'turn.completed', usage })), [
    {
      kind: 'usage',
      usage: { inputTokens: 80, outputTokens: 30, cacheReadTokens: 50, cacheWriteTokens: 20, costUsd: null },
    },
    { kind: 'result', ok: true },
  ]);
});

stream('the runtime’s parser for a resumed thread reads its total from the rollout file', () => {
  const home = tempRoot();
  const id = '01a224db-199b-7331-8777-41688686fa91';
  const dir = join(home, '.codex', 'sessions', '2026', '11', '29');
  mkdirSync(dir, { recursive: true });
  const count = (input: number) =>
    JSON.stringify({
      type: 'event_msg',
      payload: { type: 'token_count', info: { total_token_usage: { input_tokens: input } } },
    });
  writeFileSync(join(dir, `rollout-2026-11-29T01-00-00-${id}.jsonl`), `${count(100)}\n${count(250)}\n{"type":`);
  const parser = codex.parser({ home, cwd: home, env: {}, resume: id });
  const [usage] = parser.line('{"type":"turn.completed","usage":{"input_tokens":400}}');
  assert.equal(usage, {
    kind: 'usage',
    usage: { inputTokens: 150, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null },
  });
});

stream('a parser made after the run reads it against the thread’s total kept when it started', () => {
  const home = tempRoot();
  const id = '01a224db-199b-7331-8777-41688686fa92';
  const dir = join(home, '.codex', 'sessions', '2026', '11', '29');
  mkdirSync(dir, { recursive: true });
  const count = (input: number) =>
    JSON.stringify({
      type: 'event_msg',
      payload: { type: 'token_count', info: { total_token_usage: { input_tokens: input } } },
    });
  const rollout = join(dir, `rollout-2026-11-29T01-00-00-${id}.jsonl`);
  writeFileSync(rollout, `${count(100)}\n`);
  const place = { home, cwd: home, env: {}, resume: id };
  const before = codex.before!(place); // as the run starts
  writeFileSync(rollout, `${count(100)}\n${count(400)}\n`); // the run's own turn, written by the CLI
  const turn = '{"type":"turn.completed","usage":{"input_tokens":400}}';
  const [kept] = codex.parser({ ...place, before }).line(turn);
  assert.is((kept as { usage: { inputTokens: number } }).usage.inputTokens, 300, 'the run’s own 300 tokens');
  const [late] = codex.parser(place).line(turn);
  assert.is((late as { usage: { inputTokens: number } }).usage.inputTokens, 0, 'read late, the run would count 0');
});

const invocation = suite('adapters.runtimes.codexInvocation');

invocation('permissions map to Codex’s sandbox, never asking; a resume names the thread after the options', () => {
  const settings = (context: InvocationContext) =>
    codexInvocation(context).args.filter((arg) => /^(sandbox_mode|approval_policy)=/.test(arg));
  assert.equal(settings(contextWith('read-only')), ['approval_policy="never"', 'sandbox_mode="read-only"']);
  assert.equal(settings(contextWith('edit')), ['approval_policy="never"', 'sandbox_mode="workspace-write"']);
  assert.equal(settings(contextWith('full')), ['approval_policy="never"', 'sandbox_mode="danger-full-access"']);
  const resumed = codexInvocation({ ...contextWith('edit'), resume: 'thread-1' }).args;
  assert.equal(resumed.slice(0, 3), ['exec', 'resume', '--json']);
  assert.equal(resumed.slice(-3), ['--', 'thread-1', '-']);
});

invocation(
  'svc’s tools are the MCP server’s only tools, approved; a base URL is a provider with the key when given',
  () => {
    const args = codexInvocation({ ...contextWith('edit'), svcTools: ['svc_status', 'svc_task_complete'] }).args;
    assert.ok(args.includes('mcp_servers.svc.enabled_tools=["svc_status", "svc_task_complete"]'), args.join(' '));
    assert.ok(args.includes('mcp_servers.svc.default_tools_approval_mode="approve"'));
    assert.ok(args.includes('model_providers.svc_base_url.base_url="http://127.0.0.1:9/v1"'));
    assert.not.ok(
      args.some((arg) => arg.includes('env_key')),
      'no key variable required when the agent gives none',
    );
    const keyed = contextWith('edit');
    keyed.agent.env = { OPENAI_API_KEY: 'sk-test' };
    assert.ok(codexInvocation(keyed).args.includes('model_providers.svc_base_url.env_key="OPENAI_API_KEY"'));
    assert.not.ok(codexInvocation(keyed).args.join(' ').includes('sk-test'), 'the key is not on the command line');
  },
);

stream.run();
invocation.run();

// --- helpers ---

function contextWith(permissions: InvocationContext['agent']['permissions']): InvocationContext {
  return {
    agent: { id: 'coder', model: 'gpt-test', baseUrl: 'http://127.0.0.1:9/v1', permissions },
    prompt: 'Do it.',
    cwd: '/tmp/work',
    runDir: '/tmp/run',
    stateDir: '/tmp/state',
    home: '/tmp/home',
    mcp: { command: 'node', args: ['svc.js', 'mcp'], env: { SVC_HOME: '/tmp/root' } },
    svcTools: ['svc_status'],
  };
}
