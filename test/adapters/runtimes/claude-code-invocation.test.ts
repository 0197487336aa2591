// The command line and files of a Claude Code run, per permission, without running it.
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { claudeCode } from '../../../lib/adapters/runtimes/claude-code.js';
import type { InvocationContext } from '../../../lib/adapters/runtimes/runtime.js';
import type { Permission } from '../../../lib/org/runtimes.js';

function contextFor(permissions: Permission, extra: Partial<InvocationContext> = {}): InvocationContext {
  return {
    agent: { id: 'coder', model: 'claude-sonnet-5', baseUrl: 'http://127.0.0.1:4000', env: {}, permissions },
    prompt: 'Do the task.',
    cwd: '/work/tree',
    runDir: '/data/runs/r1',
    stateDir: '/tmp/state',
    home: '/home/user',
    mcp: { command: '/usr/bin/node', args: ['/svc/bin/svc.js', 'mcp'], env: { SVC_HOME: '/root' } },
    svcTools: ['svc_status', 'svc_task_complete'],
    ...extra,
  };
}

function flag(args: string[], name: string): string | undefined {
  const joined = args.find((arg) => arg.startsWith(`${name}=`));
  if (joined) return joined.slice(name.length + 1);
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

const invocation = suite('adapters.runtimes.claudeCode.invocation');

invocation('print mode with JSONL out, the prompt on stdin, the model and base URL, telemetry off', () => {
  const run = claudeCode.invocation(contextFor('edit'));
  assert.ok(run.promptOnStdin);
  assert.not.ok(run.args.includes('Do the task.'), 'the prompt is not an argument');
  assert.ok(run.args.includes('-p') && run.args.includes('--verbose'));
  assert.is(flag(run.args, '--output-format'), 'stream-json');
  assert.is(flag(run.args, '--model'), 'claude-sonnet-5');
  assert.is(run.env.ANTHROPIC_BASE_URL, 'http://127.0.0.1:4000');
  assert.is(run.env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, '1');
  assert.is(run.env.DISABLE_TELEMETRY, '1');
  assert.is(run.env.DISABLE_AUTOUPDATER, '1');
  assert.is(run.env.ENABLE_TOOL_SEARCH, 'false');
  assert.is(flag(run.args, '--resume'), undefined);
  assert.is(flag(claudeCode.invocation(contextFor('edit', { resume: 'abc-1' })).args, '--resume'), 'abc-1');
});

invocation("svc's MCP server comes from a file in the run's directory only, never from the user's config", () => {
  const run = claudeCode.invocation(contextFor('edit'));
  assert.is(run.files.length, 1);
  const file = run.files[0]!;
  assert.is(file.path, join('/data/runs/r1', 'claude-mcp.json'));
  assert.equal(JSON.parse(file.content), {
    mcpServers: {
      svc: { type: 'stdio', command: '/usr/bin/node', args: ['/svc/bin/svc.js', 'mcp'], env: { SVC_HOME: '/root' } },
    },
  });
  assert.is(flag(run.args, '--mcp-config'), file.path);
  assert.ok(run.args.includes('--strict-mcp-config'));
  assert.not.ok(JSON.stringify(run).includes('/home/user'), 'nothing under the home');
});

invocation(
  "permissions: svc's tools always; the modes keep reads and edits to the working directory; full adds all",
  () => {
    const args = (p: Permission) => claudeCode.invocation(contextFor(p)).args;
    const allowed = (p: Permission) => flag(args(p), '--allowedTools')?.split(',');
    for (const p of ['read-only', 'edit', 'full'] as const) {
      assert.ok(allowed(p)?.includes('mcp__svc__svc_task_complete') && allowed(p)?.includes('mcp__svc__svc_status'), p);
      assert.is(flag(args(p), '--permission-prompts'), 'none', p);
    }
    assert.is(flag(args('read-only'), '--permission-mode'), 'dontAsk');
    assert.equal(allowed('read-only'), ['mcp__svc__svc_status', 'mcp__svc__svc_task_complete'], 'no rule for any path');
    assert.is(flag(args('edit'), '--permission-mode'), 'acceptEdits');
    assert.equal(allowed('edit'), allowed('read-only'));
    assert.ok(allowed('full')?.includes('Bash') && allowed('full')?.includes('Write'));
    for (const p of ['read-only', 'edit', 'full'] as const) assert.is(flag(args(p), '--disallowedTools'), undefined, p);
  },
);

invocation.run();
