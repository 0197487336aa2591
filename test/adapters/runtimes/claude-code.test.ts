// The claude-code runtime against the real Claude Code CLI, the scripted model server and a real `svc mcp`.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { claudeCode } from '../../../lib/adapters/runtimes/claude-code.js';
import type { InvocationContext, RunEvent } from '../../../lib/adapters/runtimes/runtime.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { type AgentCli, ensureAgentCli } from '../../helpers/agent-clis.js';
import { writeOrg } from '../../helpers/agents.js';
import { svc } from '../../helpers/cli.js';
import { type CliModelServer, completeTask, type Script, startCliModel } from '../../helpers/cli-model/server.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';
import { runDirs, runRuntime, svcMcpLaunch } from '../../helpers/run-runtime.js';

const AGENT = 'cli-agent';
const SVC_TOOLS = TOOLS.map((tool) => tool.name);

let server: CliModelServer;
let cli: AgentCli;

/** A root whose task is in progress under `cli-agent`'s lease: its id and the lease's session. */
async function claimedTask(root: string, title: string): Promise<{ id: string; session: string }> {
  const created = await svc(root, 'task', 'create', title, '--agent', AGENT, '--json');
  assert.is(created.code, 0, created.stderr);
  const id = (JSON.parse(created.stdout) as { id: string }).id;
  assert.is((await svc(root, 'task', 'status', id, 'ready')).code, 0);
  const claimed = await svc(root, 'task', 'claim', id, '--agent', AGENT);
  assert.is(claimed.code, 0, claimed.stderr);
  const session = /sessionId: (\S+)/.exec(readFileSync(join(root, 'tasks', 'in-progress', `${id}.md`), 'utf8'))?.[1];
  assert.ok(session, 'the claimed task has a lease session');
  return { id, session };
}

function promptFor(task: { id: string; session: string }): string {
  return (
    `Work on ${task.id}. When it is done, call ` +
    `svc_task_complete({ taskId: "${task.id}", sessionId: "${task.session}", summary: "..." }).`
  );
}

function contextFor(dir: string, options: { root: string; prompt: string; resume?: string }) {
  const context: InvocationContext = {
    agent: { id: AGENT, baseUrl: server.url, env: { ANTHROPIC_API_KEY: 'scripted-key' }, permissions: 'edit' },
    prompt: options.prompt,
    ...runDirs(dir),
    mcp: svcMcpLaunch(options.root),
    svcTools: SVC_TOOLS,
    ...(options.resume ? { resume: options.resume } : {}),
  };
  return context;
}

function run(context: InvocationContext, env: Record<string, string> = {}) {
  return runRuntime(claudeCode, { bin: cli.bin, context, env, timeoutMs: 30_000 });
}

function ofKind<K extends RunEvent['kind']>(events: RunEvent[], kind: K): Extract<RunEvent, { kind: K }>[] {
  return events.filter((event): event is Extract<RunEvent, { kind: K }> => event.kind === kind);
}

function newRoot(): string {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: AGENT, name: 'CLI agent' }] });
  return root;
}

/** Completes every task named in the prompt that has no result yet (a resumed session's prompt names a new one). */
const completeEach: Script = (request) => {
  const named = [...request.prompt.matchAll(/svc_task_complete\(\{ taskId: "([^"]+)", sessionId: "([^"]+)"/g)];
  if (request.toolResults >= named.length) return { kind: 'text', text: 'Done.' };
  const [, taskId, sessionId] = named.at(-1)!;
  return { kind: 'tool', tool: 'svc_task_complete', args: { taskId, sessionId, summary: 'scripted work done' } };
};

const runtime = suite('adapters.runtimes.claudeCode');
runtime.before(async () => {
  cli = await ensureAgentCli('claude-code');
  server = await startCliModel();
});
runtime.before.each(() => {
  server.script = completeTask;
  server.usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 };
  server.served.length = 0;
});
runtime.after(async () => {
  await server.close();
  cleanRoots();
});

runtime('a run completes its task through svc_task_complete, with its session, calls and usage', async () => {
  server.usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 300, cacheWriteTokens: 40 };
  const root = newRoot();
  const task = await claimedTask(root, 'Scripted work');
  const result = await run(contextFor(join(root, 'cli'), { root, prompt: promptFor(task) }));
  assert.not.ok(result.timedOut, result.stderr);
  assert.ok(existsSync(join(root, 'tasks', 'done', `${task.id}.md`)), 'the task is done');
  const session = ofKind(result.events, 'session')[0];
  assert.match(session?.id ?? '', /^[0-9a-f-]{36}$/);
  const call = ofKind(result.events, 'tool_call')[0];
  assert.is(call?.tool, 'svc_task_complete');
  assert.is(JSON.parse(call?.args ?? '{}').taskId, task.id);
  assert.equal(
    ofKind(result.events, 'tool_result').map((r) => [r.tool, r.ok]),
    [['svc_task_complete', true]],
  );
  const usages = ofKind(result.events, 'usage');
  assert.equal(usages[0]?.usage, {
    inputTokens: 100,
    outputTokens: 20,
    cacheReadTokens: 300,
    cacheWriteTokens: 40,
    costUsd: null,
  });
  const final = usages.at(-1)?.usage;
  assert.equal(
    { ...final, costUsd: undefined },
    { inputTokens: 200, outputTokens: 40, cacheReadTokens: 600, cacheWriteTokens: 80, costUsd: undefined },
  );
  assert.ok((final?.costUsd ?? 0) > 0, 'the CLI reports its own cost');
  assert.equal(ofKind(result.events, 'result'), [{ kind: 'result', ok: true }]);
  assert.equal(
    server.served.filter((s) => s.main).map((s) => s.request?.toolResults),
    [0, 1],
  );
  const mcpConfig = join(root, 'cli', 'run', 'claude-mcp.json');
  assert.ok(existsSync(mcpConfig), 'the MCP config is in the run directory');
});

runtime(
  'a second run resumes the first run session: the model sees the earlier call, the session is kept',
  async () => {
    server.script = completeEach;
    const root = newRoot();
    const first = await claimedTask(root, 'First');
    const dir = join(root, 'cli');
    const one = await run(contextFor(dir, { root, prompt: promptFor(first) }));
    const session = ofKind(one.events, 'session')[0]?.id ?? '';
    const where = { home: join(dir, 'home'), cwd: join(dir, 'work'), env: {} };
    assert.ok(claudeCode.hasSession(where, session), 'the first session is on disk');
    assert.not.ok(claudeCode.hasSession(where, randomUUID()), 'an unknown session is not');
    assert.not.ok(claudeCode.hasSession(where, `../${session}`), 'a path is not a session');
    assert.ok(claudeCode.hasSession({ ...where, cwd: join(dir, 'elsewhere') }, session), 'it resumes from anywhere');
    const otherConfig = { ...where, env: { CLAUDE_CONFIG_DIR: join(dir, 'config') } };
    assert.not.ok(claudeCode.hasSession(otherConfig, session), 'CLAUDE_CONFIG_DIR is where it looks when set');

    const second = await claimedTask(root, 'Second');
    server.served.length = 0;
    const two = await run(contextFor(dir, { root, prompt: promptFor(second), resume: session }));
    assert.equal(ofKind(two.events, 'session')[0]?.id, session);
    assert.ok(existsSync(join(root, 'tasks', 'done', `${second.id}.md`)), 'the second task is done');
    const request = server.served.find((s) => s.main)?.request;
    assert.ok(request?.prompt.includes(first.id) && request.prompt.includes(second.id), 'both prompts are in it');
    assert.ok(JSON.stringify(request?.body).includes('"name":"mcp__svc__svc_task_complete"'), 'the earlier call');
    assert.is(request?.toolResults, 1);
    const final = ofKind(two.events, 'usage').at(-1)?.usage;
    assert.is(final?.inputTokens, 200, "the run's own tokens, not the session's");
  },
);

runtime('a model server answering 500 ends the run not ok, in the CLI own words', async () => {
  server.script = () => ({ kind: 'error', status: 500, message: 'scripted overload' });
  const root = newRoot();
  const task = await claimedTask(root, 'Failing');
  const result = await run(contextFor(join(root, 'cli'), { root, prompt: promptFor(task) }), {
    CLAUDE_CODE_MAX_RETRIES: '0',
  });
  assert.not.ok(result.timedOut);
  const last = ofKind(result.events, 'result').at(-1);
  assert.is(last?.ok, false);
  assert.match(last?.message ?? '', /API Error: 500 scripted overload/);
  assert.match(ofKind(result.events, 'error')[0]?.message ?? '', /scripted overload/);
  assert.ok(existsSync(join(root, 'tasks', 'in-progress', `${task.id}.md`)), 'the task is untouched');
});

runtime('a model server that is down ends the run not ok with the connection error', async () => {
  const down = await startCliModel();
  await down.close();
  const root = newRoot();
  const task = await claimedTask(root, 'Unreachable');
  const context = contextFor(join(root, 'cli'), { root, prompt: promptFor(task) });
  context.agent.baseUrl = down.url;
  const result = await run(context, { CLAUDE_CODE_MAX_RETRIES: '0' });
  assert.not.ok(result.timedOut);
  const last = ofKind(result.events, 'result').at(-1);
  assert.is(last?.ok, false);
  assert.match(last?.message ?? '', /^API Error: .*(connect|refused)/i);
});

runtime('a request the CLI retries is a retrying error, not the end of the run', async () => {
  let failures = 1;
  server.script = (request) =>
    failures-- > 0 ? { kind: 'error', status: 529, message: 'scripted overload' } : completeTask(request);
  const root = newRoot();
  const task = await claimedTask(root, 'Retried');
  const result = await run(contextFor(join(root, 'cli'), { root, prompt: promptFor(task) }));
  const retry = ofKind(result.events, 'error')[0];
  assert.is(retry?.retrying, true);
  assert.match(retry?.message ?? '', /529/);
  assert.equal(ofKind(result.events, 'result'), [{ kind: 'result', ok: true }]);
  assert.ok(existsSync(join(root, 'tasks', 'done', `${task.id}.md`)));
});

runtime.run();
