// What each `permissions` lets the real Claude Code CLI do, against the scripted model server and a real `svc mcp`.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { claudeCode } from '../../../lib/adapters/runtimes/claude-code.js';
import type { RunEvent } from '../../../lib/adapters/runtimes/runtime.js';
import type { Permission } from '../../../lib/org/runtimes.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { type AgentCli, ensureAgentCli } from '../../helpers/agent-clis.js';
import { type CliModelServer, type Reply, startCliModel } from '../../helpers/cli-model/server.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';
import { runDirs, runRuntime, svcMcpLaunch } from '../../helpers/run-runtime.js';

let server: CliModelServer;
let cli: AgentCli;

/** Runs the CLI with `permissions`; the model calls `steps` in turn (one per tool result so far), then ends. */
async function runSteps(permissions: Permission, steps: (cwd: string) => Reply[]) {
  const dir = tempRoot();
  const dirs = runDirs(join(dir, 'cli'));
  const planned = steps(dirs.cwd);
  server.script = (request) => planned[request.toolResults] ?? { kind: 'text', text: 'Finished.' };
  const result = await runRuntime(claudeCode, {
    bin: cli.bin,
    timeoutMs: 30_000,
    context: {
      agent: { id: 'cli-agent', baseUrl: server.url, env: { ANTHROPIC_API_KEY: 'scripted-key' }, permissions },
      prompt: 'Look around.',
      ...dirs,
      mcp: svcMcpLaunch(join(dir, 'root')),
      svcTools: TOOLS.map((tool) => tool.name),
    },
  });
  assert.not.ok(result.timedOut, result.stderr);
  return { ...result, cwd: dirs.cwd, dir };
}

const write = (path: string): Reply => ({ kind: 'tool', tool: 'Write', args: { file_path: path, content: 'x\n' } });

function denied(events: RunEvent[]): string[] {
  return events.flatMap((event) => (event.kind === 'denied' ? [event.tool] : []));
}

const permissions = suite('adapters.runtimes.claudeCode.permissions');
permissions.before(async () => {
  cli = await ensureAgentCli('claude-code');
  server = await startCliModel();
});
permissions.after(async () => {
  await server.close();
  cleanRoots();
});

permissions(
  'read-only: reading the working directory goes; a writing command and a read outside are denied',
  async () => {
    const run = await runSteps('read-only', (cwd) => {
      mkdirSync(cwd, { recursive: true });
      writeFileSync(join(cwd, 'mine.txt'), 'mine\n');
      writeFileSync(join(cwd, '..', 'outside.txt'), 'outside\n');
      return [
        { kind: 'tool', tool: 'Read', args: { file_path: join(cwd, 'mine.txt') } },
        { kind: 'tool', tool: 'Bash', args: { command: 'echo hi > written.txt', description: 'write' } },
        { kind: 'tool', tool: 'Read', args: { file_path: join(cwd, '..', 'outside.txt') } },
      ];
    });
    assert.equal(denied(run.events), ['Bash', 'Read'], JSON.stringify(run.events));
    const denial = run.events.find((event) => event.kind === 'denied');
    assert.match(denial?.kind === 'denied' ? denial.message : '', /Bash/);
    const results = run.events.flatMap((event) => (event.kind === 'tool_result' ? [[event.tool, event.ok]] : []));
    assert.equal(results, [
      ['Read', true],
      ['Bash', false],
      ['Read', false],
    ]);
    assert.not.ok(existsSync(join(run.cwd, 'written.txt')), 'the command did not run');
  },
);

permissions(
  'edit: files in the working directory are written, by the shell too; outside, or a program, is denied',
  async () => {
    const run = await runSteps('edit', (cwd) => [
      write(join(cwd, 'inside.txt')),
      { kind: 'tool', tool: 'Bash', args: { command: 'echo hi > shell.txt', description: 'write' } },
      write(join(cwd, '..', 'outside.txt')),
      { kind: 'tool', tool: 'Bash', args: { command: 'node -e 1', description: 'run' } },
    ]);
    assert.ok(existsSync(join(run.cwd, 'inside.txt')));
    assert.ok(existsSync(join(run.cwd, 'shell.txt')));
    assert.not.ok(existsSync(join(run.cwd, '..', 'outside.txt')));
    assert.equal(denied(run.events), ['Write', 'Bash']);
  },
);

permissions('full: the shell runs, and files are written anywhere', async () => {
  const run = await runSteps('full', (cwd) => [
    { kind: 'tool', tool: 'Bash', args: { command: 'echo hi > shell.txt', description: 'write' } },
    write(join(cwd, '..', 'outside.txt')),
  ]);
  assert.ok(existsSync(join(run.cwd, 'shell.txt')));
  assert.ok(existsSync(join(run.cwd, '..', 'outside.txt')));
  assert.equal(denied(run.events), []);
});

permissions.run();
