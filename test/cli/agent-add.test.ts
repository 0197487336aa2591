import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ensureAgentCli } from '../helpers/agent-clis.js';
import { SVC_BIN } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const CHART = `# Who works on what
schemaVersion: 1

agents:
  # the one who writes code
  - id: dev
    name: Dev # a person, for now
    command: [node, agent.js]

# teams come later
teams:
  - { id: core, name: Core, members: [dev] }
`;

function writeChart(root: string): string {
  const file = join(root, 'org', 'org-chart.yaml');
  mkdirSync(join(root, 'org'), { recursive: true });
  writeFileSync(file, CHART);
  return file;
}

const add = suite('cli.agent.add');
add.after.each(cleanRoots);

add("writes the agent into the org chart keeping its comments and layout, and prints its CLI's version", async () => {
  const root = tempRoot();
  const file = writeChart(root);
  const claude = await ensureAgentCli('claude-code');
  const out = await svc(
    root,
    ...['agent', 'add', 'coder', '--runtime', 'claude-code', '--model', 'claude-sonnet-5', '--team', 'core'],
    ...['--permissions', 'read-only', '--bin', claude.bin, '--base-url', 'http://127.0.0.1:4000', '--name', 'Coder'],
  );
  assert.is(out.code, 0, out.stderr);
  assert.is(
    out.stdout,
    `added agent coder (claude-code) to org/org-chart.yaml\nclaude-code: ${claude.version} (Claude Code) (${claude.bin})\n`,
  );
  const lines = CHART.split('\n');
  assert.is(
    readFileSync(file, 'utf8'),
    [
      ...lines.slice(0, 8),
      '  - id: coder',
      '    name: Coder',
      '    runtime: claude-code',
      '    model: claude-sonnet-5',
      '    team: core',
      '    permissions: read-only',
      `    bin: ${claude.bin}`,
      '    baseUrl: http://127.0.0.1:4000',
      ...lines.slice(8),
    ].join('\n'),
  );
  const validate = await svc(root, 'org', 'validate');
  assert.is(validate.code, 0, validate.stdout + validate.stderr);
  assert.match(validate.stdout, new RegExp(`\nagent coder \\(claude-code\\): ${claude.version} \\(Claude Code\\)`));
});

add('a CLI not found is a warning with how to install it; the agent is still added (--json)', async () => {
  const root = tempRoot();
  const file = writeChart(root);
  const text = await svc(root, 'agent', 'add', 'reviewer', '--runtime', 'codex');
  assert.is(text.code, 0, text.stderr);
  assert.is(
    text.stdout,
    'added agent reviewer (codex) to org/org-chart.yaml\n' +
      'warning: codex is not on PATH (PATH is empty): the agent is added, but its runs fail until the CLI answers ' +
      '(svc org validate checks it again)\n' +
      "hint: Install it with `npm install -g @openai/codex`, or set agent reviewer's `bin` to the path of the " +
      'executable (svc agent add --bin, or org/org-chart.yaml).\n',
  );
  const json = await svc(root, 'agent', 'add', 'critic', '--runtime', 'gemini', '--bin', 'bin/gemini', '--json');
  assert.is(json.code, 0, json.stderr);
  assert.equal(JSON.parse(json.stdout), {
    file,
    agent: { id: 'critic', name: 'critic', runtime: 'gemini', bin: 'bin/gemini' },
    cli: {
      agent: 'critic',
      runtime: 'gemini',
      bin: 'bin/gemini',
      found: false,
      problem: 'bin/gemini is not an executable file',
      hint:
        "Install it with `npm install -g @google/gemini-cli`, or set agent critic's `bin` to the path of the " +
        'executable (svc agent add --bin, or org/org-chart.yaml).',
    },
  });
  assert.match(
    readFileSync(file, 'utf8'),
    /\n {2}- id: reviewer\n {4}name: reviewer\n {4}runtime: codex\n {2}- id: critic\n/,
  );
});

add('without an org chart, one is created with the agent', async () => {
  const root = tempRoot();
  const out = await svc(root, 'agent', 'add', 'coder', '--runtime', 'claude-code');
  assert.is(out.code, 0, out.stderr);
  assert.is(
    readFileSync(join(root, 'org', 'org-chart.yaml'), 'utf8'),
    'schemaVersion: 1\nagents:\n  - id: coder\n    name: coder\n    runtime: claude-code\n',
  );
});

add('several adding agents at once, in one process and in several: every agent lands, comments kept', async () => {
  const root = tempRoot();
  const file = writeChart(root);
  const inProcess = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
  const outs = await Promise.all(inProcess.map((id) => svc(root, 'agent', 'add', id, '--runtime', 'gemini')));
  for (const out of outs) assert.is(out.code, 0, out.stderr);
  const run = promisify(execFile);
  const env = { PATH: process.env.PATH, SVC_HOME: root };
  const processes = ['b1', 'b2', 'b3'];
  await Promise.all(
    processes.map((id) => run(process.execPath, [SVC_BIN, 'agent', 'add', id, '--runtime', 'codex'], { env })),
  );
  const text = readFileSync(file, 'utf8');
  for (const id of [...inProcess, ...processes])
    assert.match(text, new RegExp(`\n  - id: ${id}\n    name: ${id}\n    runtime: (gemini|codex)\n`));
  assert.ok(text.startsWith(CHART.split('\n\n# teams')[0]!), text);
  assert.match(text, /\n\n# teams come later\nteams:\n/);
});

const refused = suite('cli.agent.add refused');
refused.after.each(cleanRoots);

refused('a duplicate id, an unknown runtime, no runtime: a clear error, nothing written', async () => {
  const root = tempRoot();
  const file = writeChart(root);
  const duplicate = await svc(root, 'agent', 'add', 'dev', '--runtime', 'codex');
  assert.is(duplicate.code, 1);
  assert.match(
    duplicate.stderr,
    /Agent "dev" is already in the org chart \(.*org-chart\.yaml\): nothing was changed\./,
  );
  assert.match(duplicate.stderr, /\nhint: Pick another id/);
  const unknown = await svc(root, 'agent', 'add', 'coder', '--runtime', 'claud');
  assert.is(unknown.code, 1);
  assert.match(
    unknown.stderr,
    /Unknown runtime "claud" \(known: claude-code, codex, gemini\)\. Did you mean "claude-code"\?\nhint: Pass --runtime/,
  );
  const none = await svc(root, 'agent', 'add', 'coder', '--json');
  assert.equal(JSON.parse(none.stderr).error.code, 'validation_error');
  assert.match(
    JSON.parse(none.stderr).error.message,
    /svc agent add coder needs --runtime \(claude-code, codex, gemini\)/,
  );
  assert.is(readFileSync(file, 'utf8'), CHART);
});

refused('a chart that would not validate with the agent lists every problem and is left as it was', async () => {
  const root = tempRoot();
  const file = writeChart(root);
  const out = await svc(
    root,
    ...['agent', 'add', 'coder', '--runtime', 'codex', '--team', 'cor', '--permissions', 'readonly'],
    ...['--base-url', 'localhost'],
  );
  assert.is(out.code, 1);
  assert.match(out.stderr, /Agent "coder" was not added \(nothing was written\): .*invalid org chart \(3 problems\)/);
  assert.match(out.stderr, /\n {2}agents\[1\]\.team: unknown team "cor" \(known teams: core\)/);
  assert.match(
    out.stderr,
    /\n {2}agents\[1\]\.permissions: unknown permission "readonly" .* Did you mean "read-only"\?/,
  );
  assert.match(out.stderr, /\n {2}agents\[1\]\.baseUrl: must be a URL/);
  assert.is(readFileSync(file, 'utf8'), CHART);
  assert.not.ok(existsSync(join(root, 'org', 'org-chart.yaml.tmp')));
});

add.run();
refused.run();
