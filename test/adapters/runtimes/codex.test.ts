// The real Codex CLI (`codex exec --json`) against the scripted model server, with a real `svc mcp` on a scratch root.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CODEX_PROVIDER, codex } from '../../../lib/adapters/runtimes/codex.js';
import type { InvocationContext, Runtime, RunEvent } from '../../../lib/adapters/runtimes/runtime.js';
import type { Permission } from '../../../lib/org/runtimes.js';
import { TOOL_NAMES } from '../../../lib/tools/names.js';
import { ensureAgentCli } from '../../helpers/agent-clis.js';
import { svc } from '../../helpers/cli.js';
import { baseUrlFor, type CliModelServer, completeTask, startCliModel } from '../../helpers/cli-model/server.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';
import { runDirs, runRuntime, svcMcpLaunch } from '../../helpers/run-runtime.js';

const run = suite('adapters.runtimes.codex');
let server: CliModelServer;
let bin = '';
run.before(async () => {
  bin = (await ensureAgentCli('codex')).bin;
  server = await startCliModel();
});
run.after(() => server.close());
run.after.each(cleanRoots);

run(
  'a run completes its task through svc_task_complete, with its thread, the call and the usage reported',
  async () => {
    const claimed = await claimedTask();
    server.usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 30, cacheWriteTokens: 5 };
    const out = await runRuntime(codex, { bin, context: contextFor(claimed) });
    assert.is(out.timedOut, false, out.stderr);
    assert.ok(existsSync(join(claimed.root, 'tasks', 'done', `${claimed.id}.md`)), out.stderr);
    const session = only(out.events, 'session');
    assert.match(session.id, /^[0-9a-f-]{36}$/);
    assert.is(only(out.events, 'tool_call').tool, 'svc_task_complete');
    assert.is(JSON.parse(only(out.events, 'tool_call').args).taskId, claimed.id);
    assert.equal(pick(only(out.events, 'tool_result'), 'tool', 'ok'), { tool: 'svc_task_complete', ok: true });
    assert.equal(last(out.events, 'usage').usage, {
      inputTokens: 200,
      outputTokens: 40,
      cacheReadTokens: 60,
      cacheWriteTokens: 10,
      costUsd: null,
    });
    assert.equal(last(out.events, 'result'), { kind: 'result', ok: true });
    assert.is(last(out.events, 'text').text, 'Done.');
  },
);

run('a resumed run continues its thread, and counts only its own tokens', async () => {
  server.usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 };
  const claimed = await claimedTask();
  const context = contextFor(claimed);
  const first = await runRuntime(codex, { bin, context });
  const thread = only(first.events, 'session').id;
  const where = { home: context.home, cwd: context.cwd, env: {} };
  assert.ok(codex.hasSession(where, thread), 'the thread is kept');
  assert.not.ok(codex.hasSession(where, '01a224db-0000-7000-8000-000000000000'), 'an unknown thread is not');
  const served = server.served.length;
  const again = await runRuntime(codex, { bin, context: { ...context, resume: thread, prompt: 'Go on.' } });
  assert.is(only(again.events, 'session').id, thread);
  const request = server.served.slice(served).find((s) => s.main)?.request;
  assert.ok(request, 'the resumed run asked the model');
  assert.is(request.toolResults, 1, 'the earlier tool result is in the conversation');
  const input = (request.body as { input: { type: string; name?: string }[] }).input;
  assert.ok(
    input.some((item) => item.type === 'function_call' && item.name === 'svc_task_complete'),
    'the earlier tool call is in the conversation',
  );
  assert.match(request.prompt, /Go on\./);
  assert.equal(pick(last(again.events, 'usage').usage, 'inputTokens', 'outputTokens'), {
    inputTokens: 100,
    outputTokens: 20,
  });
  rmSync(join(context.home, '.codex', 'sessions'), { recursive: true });
  assert.not.ok(codex.hasSession(where, thread), 'a thread whose files are gone is not kept');
});

run('a model server answering 500 ends the run not ok, with the CLI’s own message', async () => {
  server.script = () => ({ kind: 'error', status: 500, message: 'scripted outage' });
  try {
    const claimed = await claimedTask();
    const context = contextFor(claimed);
    // the user's own config may lower the retries of svc's provider (Codex retries a 500 five times, backing off)
    mkdirSync(join(context.home, '.codex'));
    writeFileSync(join(context.home, '.codex', 'config.toml'), NO_RETRIES);
    const out = await runRuntime(codex, { bin, context });
    assert.is(out.timedOut, false, 'no retries for minutes');
    const result = last(out.events, 'result');
    assert.is(result.ok, false);
    assert.ok(result.message && result.message.length > 0, 'the CLI’s message');
    assert.ok(
      out.events.some((e) => e.kind === 'error' && e.message === result.message),
      JSON.stringify(out.events),
    );
    assert.ok(existsSync(join(claimed.root, 'tasks', 'in-progress', `${claimed.id}.md`)), 'the task is untouched');
  } finally {
    server.script = completeTask;
  }
});

run('svc’s tool answering an error is a failed result carrying svc’s message', async () => {
  const claimed = await claimedTask();
  server.script = (request) =>
    request.toolResults > 0
      ? { kind: 'text', text: 'Gave up.' }
      : { kind: 'tool', tool: 'svc_task_complete', args: { taskId: claimed.id, sessionId: 'not-the-lease' } };
  try {
    const out = await runRuntime(codex, { bin, context: contextFor(claimed) });
    const result = only(out.events, 'tool_result');
    assert.equal(pick(result, 'tool', 'ok'), { tool: 'svc_task_complete', ok: false });
    assert.match(result.text, /stale_session/);
    assert.equal(last(out.events, 'result'), { kind: 'result', ok: true }, 'the turn itself ended well');
  } finally {
    server.script = completeTask;
  }
});

run('a call of svc’s tool the CLI may not approve is denied, naming the tool', async () => {
  const claimed = await claimedTask();
  const unapproved: Runtime = {
    ...codex,
    invocation: (context) => {
      const invocation = codex.invocation(context);
      const at = invocation.args.findIndex((arg) => arg.startsWith('mcp_servers.svc.default_tools_approval_mode='));
      invocation.args.splice(at - 1, 2);
      return invocation;
    },
  };
  const out = await runRuntime(unapproved, { bin, context: contextFor(claimed, 'read-only') });
  const denied = only(out.events, 'denied');
  assert.is(denied.tool, 'svc_task_complete');
  assert.match(denied.message, /approval/);
  assert.ok(existsSync(join(claimed.root, 'tasks', 'in-progress', `${claimed.id}.md`)), 'the task is untouched');
});

run('the invocation writes nothing into the user’s home and reads the prompt from stdin', async () => {
  const claimed = await claimedTask();
  const context = contextFor(claimed);
  const invocation = codex.invocation(context);
  assert.equal(invocation.files, []);
  assert.is(invocation.promptOnStdin, true);
  assert.is(invocation.args.at(-1), '-');
  assert.not.ok(invocation.args.join(' ').includes(claimed.root), 'the MCP environment is not on the command line');
  assert.equal(invocation.env, { SVC_HOME: claimed.root });
  assert.equal(readdirSync(context.home), []);
});

run.run();

// --- helpers ---

const NO_RETRIES = `[model_providers.${CODEX_PROVIDER}]\nstream_max_retries = 0\nrequest_max_retries = 0\n`;

interface Claimed {
  root: string;
  id: string;
  sessionId: string;
}

/** A task created, made ready and claimed by `coder`: in progress under a lease session. */
async function claimedTask(): Promise<Claimed> {
  const root = tempRoot();
  const id = (await svc(root, 'task', 'create', 'Write the parser', '--agent', 'coder')).stdout.split('\n')[0]!;
  assert.is((await svc(root, 'task', 'status', id, 'ready')).code, 0);
  const claim = await svc(root, 'task', 'claim', id, '--agent', 'coder');
  assert.is(claim.code, 0, claim.stderr);
  const sessionId = /\(session ([0-9a-f-]+)\)/.exec(claim.stdout)?.[1];
  assert.ok(sessionId, claim.stdout);
  return { root, id, sessionId };
}

function contextFor(claimed: Claimed, permissions: Permission = 'edit'): InvocationContext {
  return {
    agent: { id: 'coder', model: 'scripted-model', baseUrl: baseUrlFor(server, 'responses'), permissions },
    prompt: `You are assigned task ${claimed.id}.\nWhen you are done, call:\n  svc_task_complete({ taskId: "${claimed.id}", sessionId: "${claimed.sessionId}", summary: "<what you did>" })`,
    ...runDirs(join(claimed.root, 'run')),
    mcp: svcMcpLaunch(claimed.root),
    svcTools: TOOL_NAMES,
  };
}

function only<K extends RunEvent['kind']>(events: RunEvent[], kind: K): Extract<RunEvent, { kind: K }> {
  const found = events.filter((e) => e.kind === kind);
  assert.is(found.length, 1, `one ${kind} event in ${JSON.stringify(events)}`);
  return found[0] as Extract<RunEvent, { kind: K }>;
}

function last<K extends RunEvent['kind']>(events: RunEvent[], kind: K): Extract<RunEvent, { kind: K }> {
  const found = events.filter((e) => e.kind === kind);
  assert.ok(found.length > 0, `a ${kind} event in ${JSON.stringify(events)}`);
  return found.at(-1) as Extract<RunEvent, { kind: K }>;
}

function pick<T extends object, K extends keyof T>(value: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>;
}
