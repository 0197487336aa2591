import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { ensureAgentCli } from '../helpers/agent-clis.js';
import { quittingAgent, writeOrg } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';
import { readyTask, writeAgents } from './agent-fixture.js';

const bad = suite('cli.agent bad input');
bad.after.each(cleanRoots);

bad('an unknown agent is refused with "Did you mean" and changes nothing', async () => {
  const root = tempRoot();
  writeAgents(root);
  for (const verb of ['pause', 'resume']) {
    const out = await svc(root, 'agent', verb, 'devv', '--reason', 'x');
    assert.is(out.code, 1);
    assert.match(out.stderr, /Unknown agent "devv": the org chart does not list it\. Did you mean "dev"\?/);
    assert.match(out.stderr, /hint: The agents are: dev, dev2/);
  }
  const json = await svc(root, 'agent', 'pause', 'nobody', '--json');
  assert.equal(JSON.parse(json.stderr).error.code, 'not_found');
  assert.not.ok(existsSync(toPaths(root).agentPauses));
  assert.equal(
    (await readEvents(root)).filter((e) => e.type.startsWith('agent.')),
    [],
  );
});

bad('without an org chart no agent is known; a pause file that does not parse is named, not overwritten', async () => {
  const root = tempRoot();
  const none = await svc(root, 'agent', 'pause', 'dev');
  assert.is(none.code, 1);
  assert.match(none.stderr, /there is no org chart \(org\/org-chart.yaml\), so no agent is known/);
  writeAgents(root);
  mkdirSync(toPaths(root).data, { recursive: true });
  writeFileSync(toPaths(root).agentPauses, '{"paused": [');
  const broken = await svc(root, 'agent', 'pause', 'dev');
  assert.is(broken.code, 1);
  assert.match(broken.stderr, /agent-pauses\.json: not JSON/);
  assert.is(readFileSync(toPaths(root).agentPauses, 'utf8'), '{"paused": [');
});

const files = suite('cli.agent without a daemon');
files.after.each(cleanRoots);

files("pause holds the agent's tasks in the plan, list shows it, resume releases it; each logs one event", async () => {
  const root = tempRoot();
  writeAgents(root);
  const id = await readyTask(root, 'Held');
  const paused = await svc(root, 'agent', 'pause', 'dev', '--reason', 'rotating keys', '--json');
  assert.is(paused.code, 0, paused.stderr);
  assert.equal(
    { ...JSON.parse(paused.stdout), pause: { ...JSON.parse(paused.stdout).pause, since: '-' } },
    {
      agent: 'dev',
      paused: true,
      changed: true,
      pause: { agent: 'dev', since: '-', by: 'operator', reason: 'rotating keys' },
    },
  );
  const again = await svc(root, 'agent', 'pause', 'dev');
  assert.match(again.stdout, /agent dev was already paused since .* \(rotating keys\)/);
  const plan = await svc(root, 'scheduler', 'run');
  assert.match(
    plan.stdout,
    new RegExp(`hold        ${id}: agent-paused: agent dev is paused since \\S+ by operator \\(rotating keys\\)`),
  );
  const list = JSON.parse((await svc(root, 'agent', 'list', '--json')).stdout) as {
    agents: { id: string; paused: boolean; runs: string[] }[];
  };
  assert.equal(
    list.agents.map((a) => [a.id, a.paused, a.runs.length]),
    [
      ['dev', true, 0],
      ['dev2', false, 0],
    ],
  );
  assert.match(
    (await svc(root, 'agent', 'list')).stdout,
    /dev +command +paused +0 +- +0\n {2}paused since \S+ by operator: rotating keys\n/,
  );
  assert.match((await svc(root, 'agent', 'resume', 'dev')).stdout, /agent dev resumed/);
  assert.match((await svc(root, 'agent', 'resume', 'dev')).stdout, /agent dev was not paused: nothing changed/);
  assert.match((await svc(root, 'scheduler', 'run')).stdout, new RegExp(`dispatch    ${id} -> dev \\(command\\)`));
  const events = (await readEvents(root)).filter((e) => e.type.startsWith('agent.'));
  assert.equal(
    events.map((e) => [e.type, e.actor, e.payload]),
    [
      ['agent.paused', 'operator', { agent: 'dev', reason: 'rotating keys' }],
      ['agent.resumed', 'operator', { agent: 'dev' }],
    ],
  );
});

files(
  'list counts failed dispatches in a row from the event log; a paused agent removed from the chart is listed and can be resumed',
  async () => {
    const root = tempRoot();
    writeOrg(root, {
      agents: [
        { id: 'dev', name: 'Dev', command: quittingAgent() },
        { id: 'old', name: 'Old' },
      ],
    });
    const id = await readyTask(root, 'Fails once');
    assert.is((await svc(root, 'scheduler', 'run', '--active')).code, 0);
    assert.is((await svc(root, 'agent', 'pause', 'old')).code, 0);
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: quittingAgent() }] });
    const rows = JSON.parse((await svc(root, 'agent', 'list', '--json')).stdout).agents as {
      id: string;
      known: boolean;
      failuresInARow: number;
      lastDispatch: { taskId: string } | null;
    }[];
    assert.equal(
      rows.map((r) => [r.id, r.known, r.failuresInARow, r.lastDispatch?.taskId ?? null]),
      [
        ['dev', true, 1, id],
        ['old', false, 0, null],
      ],
    );
    assert.match((await svc(root, 'agent', 'list')).stdout, /old +- +paused +0 +- +0\n/);
    assert.match((await svc(root, 'agent', 'resume', 'old')).stdout, /agent old resumed/);
    assert.is(
      (await svc(root, 'agent', 'pause', 'old')).code,
      1,
      'once resumed, an agent not in the chart cannot be paused again',
    );
  },
);

const runtimes = suite('cli.agent list runtimes');
runtimes.after.each(cleanRoots);

runtimes(
  "list shows each agent's runtime and its CLI's version, command agents as command, gateway agents as -",
  async () => {
    const root = tempRoot();
    const [claude, gemini] = await Promise.all([ensureAgentCli('claude-code'), ensureAgentCli('gemini')]);
    writeOrg(root, {
      agents: [
        { id: 'coder', name: 'Coder', runtime: 'claude-code', bin: claude.bin },
        // gemini is a Node program: it finds node on the PATH the agent's env gives
        { id: 'reviewer', name: 'Reviewer', runtime: 'gemini', bin: gemini.bin, env: { PATH: process.env.PATH! } },
        { id: 'helper', name: 'Helper', runtime: 'codex' },
        { id: 'local', name: 'Local', command: quittingAgent() },
        { id: 'remote', name: 'Remote' },
      ],
    });
    const text = (await svc(root, 'agent', 'list')).stdout;
    assert.match(text, /^AGENT +RUNTIME +STATE +RUNS +LAST DISPATCH +FAILURES IN A ROW\n/);
    assert.match(text, new RegExp(`\ncoder +claude-code ${claude.version} \\(Claude Code\\) +active +0 +- +0\n`));
    assert.match(text, new RegExp(`\nreviewer +gemini ${gemini.version} +active `));
    assert.match(
      text,
      /\nhelper +codex \(CLI not found\) +active +0 +- +0\n {2}codex CLI: codex is not on PATH \(PATH is empty\)\n {2}hint: Install it with `npm install -g @openai\/codex`/,
    );
    assert.match(text, /\nlocal +command +active /);
    assert.match(text, /\nremote +- +active /);
    const rows = JSON.parse((await svc(root, 'agent', 'list', '--json')).stdout).agents as {
      id: string;
      runtime: string | null;
      version: string | null;
      cli: { found: boolean; path?: string; problem?: string } | null;
    }[];
    assert.equal(
      rows.map((r) => [r.id, r.runtime, r.version, r.cli?.found ?? null]),
      [
        ['coder', 'claude-code', `${claude.version} (Claude Code)`, true],
        ['reviewer', 'gemini', gemini.version, true],
        ['helper', 'codex', null, false],
        ['local', 'command', null, null],
        ['remote', null, null, null],
      ],
    );
    assert.is(rows[0]!.cli!.path, claude.bin);
  },
);

bad.run();
files.run();
runtimes.run();
