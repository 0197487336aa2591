import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { templatePath } from '../../lib/core/package-root.js';
import { ensureAgentCli } from '../helpers/agent-clis.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const CHART = `schemaVersion: 1
agents:
  - { id: dev, name: Dev }
  - { id: lead, name: Lead }
teams:
  - { id: core, name: Core, members: [dev, lead] }
roles:
  implementer: { agents: [dev] }
  reviewer: { agents: [lead] }
`;

function writeChart(root: string, yaml: string): void {
  mkdirSync(join(root, 'org'), { recursive: true });
  writeFileSync(join(root, 'org', 'org-chart.yaml'), yaml);
}

const validate = suite('cli.org.validate');
validate.after.each(cleanRoots);

validate('prints valid and the counts, one a line', async () => {
  const root = tempRoot();
  writeChart(root, CHART);
  const result = await svc(root, 'org', 'validate');
  assert.is(result.code, 0, result.stderr);
  assert.is(result.stdout, 'valid\nagents: 2\nteams: 1\nroles: 2\n');
  assert.is(result.stderr, '');
});

validate('prints an object with --json', async () => {
  const root = tempRoot();
  writeChart(root, CHART);
  const result = await svc(root, 'org', 'validate', '--json');
  assert.is(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout), {
    valid: true,
    file: join(root, 'org', 'org-chart.yaml'),
    agents: 2,
    teams: 1,
    roles: 2,
    runtimes: [],
  });
});

validate('exits 1 with every problem on stderr', async () => {
  const root = tempRoot();
  writeChart(
    root,
    `${CHART.replace('members: [dev, lead]', 'members: [dev, bob]')}aof:\n  daemon:\n    pollInterval: 5\n`,
  );
  const result = await svc(root, 'org', 'validate');
  assert.is(result.code, 1);
  assert.is(result.stdout, '');
  assert.match(result.stderr, /invalid org chart \(2 problems\)/);
  assert.match(result.stderr, /\n  teams\[0\]\.members\[1\]: unknown agent "bob" \(known agents: dev, lead\)\n/);
  assert.match(result.stderr, /\n  aof\.daemon\.pollInterval: unknown setting/);
  assert.match(result.stderr, /\nhint: Fix the listed fields/);
});

validate('prints the error shape on stderr with --json', async () => {
  const root = tempRoot();
  writeChart(root, 'schemaVersion: 1\naof:\n  projects:\n    web:\n      sla:\n        onViolation: deadletter\n');
  const result = await svc(root, 'org', 'validate', '--json');
  assert.is(result.code, 1);
  const body = JSON.parse(result.stderr) as { ok: boolean; error: { code: string; message: string } };
  assert.is(body.ok, false);
  assert.is(body.error.code, 'validation_error');
  assert.match(
    body.error.message,
    /aof\.projects\.web\.sla\.onViolation: only "alert" is supported, found "deadletter"/,
  );
});

validate('validates the chart at an explicit path', async () => {
  const root = tempRoot();
  const file = join(root, 'draft.yaml');
  writeFileSync(file, CHART.replace('roles:\n', 'roles:\n  researcher: { agents: [lead] }\n'));
  const result = await svc(root, 'org', 'validate', file);
  assert.is(result.code, 0, result.stderr);
  assert.is(result.stdout, 'valid\nagents: 2\nteams: 1\nroles: 3\n');
});

validate('is not_found when there is no chart', async () => {
  const root = tempRoot();
  const result = await svc(root, 'org', 'validate');
  assert.is(result.code, 1);
  assert.match(result.stderr, /No org chart at .*org-chart\.yaml/);
  assert.match(result.stderr, /hint: Copy templates\/org-chart\.yaml/);
});

validate('accepts the shipped template', async () => {
  const result = await svc(tempRoot(), 'org', 'validate', templatePath('org-chart.yaml'));
  assert.is(result.code, 0, result.stderr);
  assert.is(result.stdout, 'valid\nagents: 3\nteams: 1\nroles: 2\n');
});

validate.run();

const runtimes = suite('cli.org.validate runtime agents');
runtimes.after.each(cleanRoots);

/** A chart of runtime agents: one whose `bin` is the real Claude Code, one whose CLI is nowhere. */
async function writeRuntimeChart(root: string): Promise<{ bin: string; version: string }> {
  const claude = await ensureAgentCli('claude-code');
  writeChart(
    root,
    `schemaVersion: 1\nagents:\n  - { id: coder, name: Coder, runtime: claude-code, bin: ${claude.bin} }\n` +
      '  - { id: reviewer, name: Reviewer, runtime: gemini, permissions: read-only }\n',
  );
  return claude;
}

runtimes("prints each runtime CLI's version, and a CLI not found with how to install it (exit 1)", async () => {
  const root = tempRoot();
  const claude = await writeRuntimeChart(root);
  const result = await svc(root, 'org', 'validate');
  assert.is(result.code, 1, result.stderr);
  assert.is(
    result.stdout,
    'valid\nagents: 2\nteams: 0\nroles: 0\n' +
      `agent coder (claude-code): ${claude.version} (Claude Code) (${claude.bin})\n` +
      'agent reviewer (gemini): problem: gemini is not on PATH (PATH is empty)\n' +
      "  hint: Install it with `npm install -g @google/gemini-cli`, or set agent reviewer's `bin` " +
      'to the path of the executable (svc agent add --bin, or org/org-chart.yaml).\n',
  );
  const json = JSON.parse((await svc(root, 'org', 'validate', '--json')).stdout) as {
    runtimes: Array<{ agent: string; found: boolean; version?: string; problem?: string }>;
  };
  assert.equal(
    json.runtimes.map(({ agent, found, version }) => ({ agent, found, version })),
    [
      { agent: 'coder', found: true, version: `${claude.version} (Claude Code)` },
      { agent: 'reviewer', found: false, version: undefined },
    ],
  );
});

runtimes('an unknown runtime or permission is refused with "Did you mean", every problem listed', async () => {
  const root = tempRoot();
  writeChart(
    root,
    'schemaVersion: 1\nagents:\n  - { id: coder, name: Coder, runtime: claude }\n' +
      '  - { id: reviewer, name: Reviewer, runtime: codex, permissions: readonly }\n',
  );
  const result = await svc(root, 'org', 'validate');
  assert.is(result.code, 1);
  assert.is(result.stdout, '');
  assert.match(result.stderr, /invalid org chart \(2 problems\)/);
  assert.match(
    result.stderr,
    /\n  agents\[0\]\.runtime: unknown runtime "claude" \(known: claude-code, codex, gemini\)\. Did you mean "claude-code"\?\n/,
  );
  assert.match(
    result.stderr,
    /\n  agents\[1\]\.permissions: unknown permission "readonly" \(known: read-only, edit, full\)\. Did you mean "read-only"\?\n/,
  );
  assert.match(result.stderr, /\nhint: Fix the listed fields/);
});

runtimes.run();
