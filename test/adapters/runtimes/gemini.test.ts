// Gemini CLI as a runtime, for real: the CLI from npm against the scripted model server (the Gemini API over SSE),
// with a real `svc mcp` on a scratch root whose task is claimed by the run's agent.
import { existsSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { gemini } from '../../../lib/adapters/runtimes/gemini.js';
import type { InvocationContext, Runtime, RunEvent } from '../../../lib/adapters/runtimes/runtime.js';
import type { Permission } from '../../../lib/org/runtimes.js';
import { TOOL_NAMES } from '../../../lib/tools/names.js';
import { type AgentCli, ensureAgentCli } from '../../helpers/agent-clis.js';
import { svc } from '../../helpers/cli.js';
import { type CliModelServer, completeTask, startCliModel } from '../../helpers/cli-model/server.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';
import { runDirs, runRuntime, svcMcpLaunch } from '../../helpers/run-runtime.js';

const AGENT = 'gemini-agent';
let cli: AgentCli;
let server: CliModelServer;

/** A scratch root with one task claimed by the agent: its id, lease session, and the run's directories. */
async function claimedTask() {
  const dir = tempRoot('svc-gemini-');
  const root = join(dir, 'svc');
  const created = await svc(root, 'task', 'create', 'Write the thing', '--agent', AGENT, '--json');
  const id = (JSON.parse(created.stdout) as { id: string }).id;
  assert.is((await svc(root, 'task', 'status', id, 'ready')).code, 0);
  const claimed = await svc(root, 'task', 'claim', id, '--agent', AGENT);
  const session = /\(session ([0-9a-f-]+)\)/.exec(claimed.stdout)?.[1];
  assert.ok(session, claimed.stdout + claimed.stderr);
  return { root, id, session, dirs: runDirs(dir) };
}

type Claimed = Awaited<ReturnType<typeof claimedTask>>;

function contextOf(task: Claimed, options: { permissions?: Permission; resume?: string; prompt?: string } = {}) {
  const context: InvocationContext = {
    agent: { id: AGENT, model: 'gemini-scripted', baseUrl: server.url, permissions: options.permissions ?? 'edit' },
    prompt:
      options.prompt ??
      `Do the task, then call svc_task_complete({ taskId: "${task.id}", sessionId: "${task.session}" }).`,
    ...task.dirs,
    mcp: svcMcpLaunch(task.root),
    svcTools: TOOL_NAMES,
    ...(options.resume ? { resume: options.resume } : {}),
  };
  return context;
}

/** The runtime with one more setting in the run's settings file (the tests make the CLI try a request once). */
function withSettings(extra: Record<string, unknown>): Runtime {
  return {
    ...gemini,
    invocation(context) {
      const invocation = gemini.invocation(context);
      const files = invocation.files.map((file) =>
        file.path.endsWith('settings.json')
          ? { ...file, content: JSON.stringify({ ...JSON.parse(file.content), ...extra }) }
          : file,
      );
      return { ...invocation, files };
    },
  };
}

async function run(context: InvocationContext, runtime: Runtime = gemini) {
  return runRuntime(runtime, { bin: cli.bin, context, env: { GEMINI_API_KEY: 'scripted-key' }, timeoutMs: 60_000 });
}

function ofKind<K extends RunEvent['kind']>(events: RunEvent[], kind: K): Extract<RunEvent, { kind: K }>[] {
  return events.filter((event): event is Extract<RunEvent, { kind: K }> => event.kind === kind);
}

const real = suite('runtimes.gemini (the real CLI)');
real.before(async () => {
  cli = await ensureAgentCli('gemini');
  server = await startCliModel();
});
real.after(async () => {
  await server.close();
});
real.before.each(() => {
  server.script = completeTask;
  server.usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 };
});
real.after.each(cleanRoots);

real(
  'a run completes the task through svc_task_complete, and its stream reads as the scripted model said',
  async () => {
    const task = await claimedTask();
    server.usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 30, cacheWriteTokens: 0 };
    const result = await run(contextOf(task));
    assert.ok(existsSync(join(task.root, 'tasks', 'done', `${task.id}.md`)), result.stderr);
    const [session] = ofKind(result.events, 'session');
    assert.match(session?.id ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(ofKind(result.events, 'model'), [{ kind: 'model', model: 'gemini-scripted' }]);
    const [call] = ofKind(result.events, 'tool_call');
    assert.is(call?.tool, 'svc_task_complete');
    assert.equal(JSON.parse(call?.args ?? '{}'), {
      taskId: task.id,
      sessionId: task.session,
      summary: 'scripted work done',
    });
    const [toolResult] = ofKind(result.events, 'tool_result');
    assert.is(toolResult?.tool, 'svc_task_complete');
    assert.ok(toolResult?.ok);
    assert.match(toolResult?.text ?? '', /"status": "done"/);
    assert.equal(ofKind(result.events, 'text').at(-1), { kind: 'text', text: 'Done.' });
    assert.is(ofKind(result.events, 'usage').at(-1)?.model, 'gemini-scripted');
    const usage = ofKind(result.events, 'usage').at(-1)?.usage;
    assert.equal(usage, {
      inputTokens: 200,
      outputTokens: 40,
      cacheReadTokens: 60,
      cacheWriteTokens: 0,
      costUsd: null,
    });
    assert.equal(result.events.at(-1), { kind: 'result', ok: true });
    assert.equal(ofKind(result.events, 'denied'), []);
  },
);

real('a second run resumes the session: the model sees the earlier call, and the session is found', async () => {
  const task = await claimedTask();
  const first = await run(contextOf(task));
  const id = ofKind(first.events, 'session')[0]?.id ?? '';
  const where = { home: task.dirs.home, cwd: task.dirs.cwd, env: gemini.invocation(contextOf(task)).env };
  assert.ok(gemini.hasSession(where, id), 'the first run keeps its session');
  const link = join(dirname(task.dirs.cwd), 'work-link');
  symlinkSync(task.dirs.cwd, link);
  assert.ok(gemini.hasSession({ ...where, cwd: link }, id), 'a work directory named through a symlink');
  const before = server.served.length;
  const second = await run(contextOf(task, { resume: id, prompt: 'The review asked for one more thing.' }));
  assert.equal(ofKind(second.events, 'session'), [{ kind: 'session', id }]);
  const resumed = server.served.slice(before).filter((served) => served.main);
  assert.ok(resumed.length > 0, second.stderr);
  const request = resumed[0]!.request!;
  const contents = (request.body as { contents: Array<{ parts?: Array<{ functionCall?: { name: string } }> }> })
    .contents;
  const calls = contents.flatMap((content) => content.parts ?? []).map((part) => part.functionCall?.name);
  assert.ok(calls.includes('mcp_svc_svc_task_complete'), 'the resumed conversation holds the earlier tool call');
  assert.is(request.toolResults, 1, 'each tool result counts once');
  assert.match(request.prompt, /The review asked for one more thing/);
  assert.equal(second.events.at(-1), { kind: 'result', ok: true });
  assert.not.ok(gemini.hasSession(where, '0b0e5f7e-1111-4222-8333-944445555666'));
  assert.not.ok(gemini.hasSession({ ...where, cwd: join(task.dirs.cwd, 'elsewhere') }, id));
});

real('a model server answering 500 ends the run not ok, with the API error the CLI reports', async () => {
  const task = await claimedTask();
  server.script = () => ({ kind: 'error', status: 500, message: 'scripted model failure' });
  const result = await run(contextOf(task), withSettings({ general: { maxAttempts: 1 } }));
  assert.not.ok(result.timedOut);
  const final = result.events.at(-1);
  assert.is(final?.kind, 'result');
  assert.not.ok(final?.kind === 'result' && final.ok);
  assert.match(final?.kind === 'result' ? (final.message ?? '') : '', /API Error.*scripted model failure/);
  assert.ok(existsSync(join(task.root, 'tasks', 'in-progress', `${task.id}.md`)));
});

real('read-only: a file write is refused by the CLI, and the parser names the denied tool', async () => {
  const task = await claimedTask();
  server.script = (request) =>
    request.toolResults > 0
      ? { kind: 'text', text: 'Could not write.' }
      : { kind: 'tool', tool: 'write_file', args: { file_path: 'notes.txt', content: 'hello' } };
  const result = await run(contextOf(task, { permissions: 'read-only' }));
  const denied = ofKind(result.events, 'denied');
  assert.is(denied.length, 1, result.lines.join('\n'));
  assert.is(denied[0]?.tool, 'write_file');
  assert.match(denied[0]?.message ?? '', /write_file/);
  assert.not.ok(existsSync(join(task.dirs.cwd, 'notes.txt')));
  assert.ok(existsSync(join(task.root, 'tasks', 'in-progress', `${task.id}.md`)));
});

real('edit may write files in the work directory, full may run commands too', async () => {
  const [edit, full] = [await claimedTask(), await claimedTask()];
  server.script = (request) => {
    if (request.toolResults > 0) return { kind: 'text', text: 'Written.' };
    const offered = JSON.stringify(request.body).includes('"name":"run_shell_command"');
    return offered
      ? { kind: 'tool', tool: 'run_shell_command', args: { command: 'echo ran > shell.txt' } }
      : { kind: 'tool', tool: 'write_file', args: { file_path: 'notes.txt', content: 'hello' } };
  };
  const [edited, ran] = await Promise.all([
    run(contextOf(edit, { permissions: 'edit' })),
    run(contextOf(full, { permissions: 'full' })),
  ]);
  assert.equal(
    ofKind(edited.events, 'tool_call').map((call) => call.tool),
    ['write_file'],
    edited.stderr,
  );
  assert.ok(ofKind(edited.events, 'tool_result')[0]?.ok);
  assert.ok(existsSync(join(edit.dirs.cwd, 'notes.txt')));
  assert.equal(
    ofKind(ran.events, 'tool_call').map((call) => call.tool),
    ['run_shell_command'],
    ran.stderr,
  );
  assert.ok(ofKind(ran.events, 'tool_result')[0]?.ok);
  assert.ok(existsSync(join(full.dirs.cwd, 'shell.txt')));
  assert.equal([...ofKind(edited.events, 'denied'), ...ofKind(ran.events, 'denied')], []);
});

real.run();
