import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { geminiParser, toSvcToolName } from '../../../lib/adapters/runtimes/gemini-stream.js';

// Lines as Gemini CLI 0.61 prints them with `--output-format stream-json` (timestamps left out).
const INIT = '{"type":"init","session_id":"b0c0d5d3-6414-429d-b777-b8b65c657a59","model":"gemini-scripted"}';
const CALL =
  '{"type":"tool_use","tool_name":"mcp_svc_svc_task_complete","tool_id":"t1","parameters":{"taskId":"TASK-1"}}';
const DONE = '{"type":"tool_result","tool_id":"t1","status":"success","output":"{\\"status\\": \\"done\\"}"}';
const REFUSED =
  '{"type":"tool_use","tool_name":"write_file","tool_id":"t2","parameters":{"file_path":"a"}}\n' +
  '{"type":"tool_result","tool_id":"t2","status":"error","output":"Tool \\"write_file\\" not found.",' +
  '"error":{"type":"tool_not_registered","message":"Tool \\"write_file\\" not found."}}';
const STATS =
  '"stats":{"total_tokens":300,"input_tokens":260,"output_tokens":40,"cached":60,"input":200,"tool_calls":1}';

const lines = (text: string, parser = geminiParser()) => text.split('\n').flatMap((line) => parser.line(line));

const parse = suite('runtimes.geminiParser');

parse('the init line gives the session and the model', () => {
  assert.equal(lines(INIT), [
    { kind: 'session', id: 'b0c0d5d3-6414-429d-b777-b8b65c657a59' },
    { kind: 'model', model: 'gemini-scripted' },
  ]);
});

parse('a call of svc tool goes by its svc name, and its result by the call it answers', () => {
  assert.equal(lines(`${CALL}\n${DONE}`), [
    { kind: 'tool_call', tool: 'svc_task_complete', args: '{"taskId":"TASK-1"}' },
    { kind: 'tool_result', tool: 'svc_task_complete', ok: true, text: '{"status": "done"}' },
  ]);
});

parse('a tool the approval mode leaves out is a failed result and a denial naming it', () => {
  const events = lines(REFUSED);
  assert.equal(events.slice(1), [
    { kind: 'tool_result', tool: 'write_file', ok: false, text: 'Tool "write_file" not found.' },
    { kind: 'denied', tool: 'write_file', message: 'Tool "write_file" not found.' },
  ]);
});

parse('a failed tool that was allowed is no denial', () => {
  const failed =
    '{"type":"tool_result","tool_id":"t1","status":"error","error":{"type":"mcp_tool_error","message":"boom"}}';
  assert.equal(lines(`${CALL}\n${failed}`).slice(1), [
    { kind: 'tool_result', tool: 'svc_task_complete', ok: false, text: 'boom' },
  ]);
});

parse('assistant text is kept, the echoed user prompt is not', () => {
  const text =
    '{"type":"message","role":"user","content":"Do it."}\n' +
    '{"type":"message","role":"assistant","content":"Done.","delta":true}';
  assert.equal(lines(text), [{ kind: 'text', text: 'Done.' }]);
});

parse('the result gives the run usage without the cache reads in the input, then the outcome', () => {
  assert.equal(lines(`{"type":"result","status":"success",${STATS}}`), [
    {
      kind: 'usage',
      usage: { inputTokens: 200, outputTokens: 40, cacheReadTokens: 60, cacheWriteTokens: 0, costUsd: null },
    },
    { kind: 'result', ok: true },
  ]);
});

parse('the usage names the model that took the most tokens (the router model answers a side request)', () => {
  const models = '"models":{"gemini-3.5-flash-lite":{"total_tokens":2},"gemini-3.8-flash":{"total_tokens":240}}';
  const [usage] = lines(`{"type":"result","status":"success","stats":{"input_tokens":201,${models}}}`);
  assert.is(usage?.kind === 'usage' ? usage.model : undefined, 'gemini-3.8-flash');
});

parse('a failed run ends with the CLI own message', () => {
  const failed = '{"type":"result","status":"error","error":{"type":"unknown","message":"[API Error: quota]"}}';
  assert.equal(lines(failed), [{ kind: 'result', ok: false, message: '[API Error: quota]' }]);
});

parse('errors are reported, a retry notice as retrying', () => {
  const text =
    '{"type":"error","severity":"warning","message":"Attempt 1 failed. Retrying with backoff..."}\n' +
    '{"type":"error","severity":"error","message":"Loop detected"}';
  assert.equal(lines(text), [
    { kind: 'error', message: 'Attempt 1 failed. Retrying with backoff...', retrying: true },
    { kind: 'error', message: 'Loop detected' },
  ]);
});

parse('lines that are not the CLI JSON, unknown types and unknown fields give nothing or are passed over', () => {
  const text =
    'Warning: Basic terminal detected\n[1,2]\n{"type":"init"\n{"type":"thought","content":"x"}\n' +
    '{"type":"init","session_id":"s1","model":7,"extra":{"a":1}}';
  assert.equal(lines(text), [{ kind: 'session', id: 's1' }]);
});

parse('MCP tools of other servers and built-in tools keep the CLI name', () => {
  assert.is(toSvcToolName('mcp_svc_svc_status'), 'svc_status');
  assert.is(toSvcToolName('mcp_other_search'), 'mcp_other_search');
  assert.is(toSvcToolName('read_file'), 'read_file');
});

parse.run();
