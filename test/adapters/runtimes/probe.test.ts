import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkRuntimeAgents, probeRuntime } from '../../../lib/adapters/runtimes/probe.js';
import { validateOrg } from '../../../lib/org/org-chart.js';
import { ensureAgentCli } from '../../helpers/agent-clis.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

/** An executable shell script `name` in `dir`. */
function script(dir: string, name: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const probe = suite('adapters.runtimes.probeRuntime');
probe.after.each(cleanRoots);

probe('finds a name on the PATH it is given and returns the first line the CLI prints', async () => {
  const root = tempRoot();
  script(join(root, 'bin'), 'claude', 'echo "9.9.9 (Claude Code)"; echo more');
  const found = await probeRuntime({ bin: 'claude', env: { PATH: `/nowhere:${join(root, 'bin')}` }, cwd: root });
  assert.equal(found, {
    bin: 'claude',
    found: true,
    path: join(root, 'bin', 'claude'),
    version: '9.9.9 (Claude Code)',
  });
  const relative = await probeRuntime({ bin: './bin/claude', env: {}, cwd: root });
  assert.is(relative.version, '9.9.9 (Claude Code)');
});

probe('reports a name not on PATH, a path that is no executable, a CLI that fails', async () => {
  const root = tempRoot();
  const missing = await probeRuntime({ bin: 'codex', env: { PATH: '/nowhere' }, cwd: root });
  assert.equal(missing, { bin: 'codex', found: false, problem: 'codex is not on PATH (/nowhere)' });
  writeFileSync(join(root, 'plain'), 'not a program');
  const plain = await probeRuntime({ bin: join(root, 'plain'), env: {}, cwd: root });
  assert.is(plain.problem, `${join(root, 'plain')} is not an executable file`);
  const failing = script(root, 'gemini', 'echo "cannot find module" >&2; exit 3');
  const failed = await probeRuntime({ bin: failing, env: {}, cwd: root });
  assert.is(failed.found, true);
  assert.is(failed.problem, `\`${failing} --version\` exited with code 3: cannot find module`);
});

probe('a CLI that hangs is reported at the timeout, its children killed with it', async () => {
  const root = tempRoot();
  const hanging = script(root, 'claude', 'sleep 60 & sleep 60');
  const started = Date.now();
  const hung = await probeRuntime({ bin: hanging, env: {}, cwd: root, timeoutMs: 300 });
  assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
  assert.is(hung.problem, `\`${hanging} --version\` did not answer within 0.3 s`);
});

const check = suite('adapters.runtimes.checkRuntimeAgents');
check.after.each(cleanRoots);

check("probes each runtime agent's CLI with the agent's env over the daemon's, with a hint per problem", async () => {
  const root = tempRoot();
  const claude = await ensureAgentCli('claude-code');
  const org = validateOrg(
    {
      schemaVersion: 1,
      agents: [
        { id: 'coder', name: 'Coder', runtime: 'claude-code', bin: claude.bin },
        { id: 'reviewer', name: 'Reviewer', runtime: 'codex', env: { PATH: join(root, 'none') } },
        { id: 'local', name: 'Local', command: ['true'] },
      ],
    },
    'org-chart.yaml',
  );
  const checks = await checkRuntimeAgents(org.agents, { env: { PATH: process.env.PATH }, cwd: root });
  assert.equal(
    checks.map(({ agent, runtime, version }) => ({ agent, runtime, version })),
    [
      { agent: 'coder', runtime: 'claude-code', version: `${claude.version} (Claude Code)` },
      { agent: 'reviewer', runtime: 'codex', version: undefined },
    ],
  );
  assert.is(checks[1]!.problem, `codex is not on PATH (${join(root, 'none')})`);
  assert.match(checks[1]!.hint!, /npm install -g @openai\/codex`, or set agent reviewer's `bin`/);
});

probe.run();
check.run();
