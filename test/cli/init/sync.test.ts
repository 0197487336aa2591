import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadOrg } from '../../../lib/org/org-chart.js';
import { SVC_BIN } from '../../helpers/agents.js';
import { init, makeWorld, readConfig, snapshot, type InitWorld } from '../../helpers/init.js';
import { cleanRoots } from '../../helpers/root.js';

const test = suite('cli.init sync');
test.after.each(() => cleanRoots());

const ORG = `# our team
schemaVersion: 1
agents:
  - id: dev
    name: Developer
  - id: runner
    name: Local runner
    command: [node, agent.js]
teams: []
`;

test('gateway agents missing from the org chart are added to it; a missing chart is created', async () => {
  const world = makeWorld(
    '{ agents: { entries: { main: { name: "Main" }, research: { identity: { name: "Researcher" } } }, ownership: "explicit" } }',
  );
  const result = await init(world, '--yes');
  assert.is(result.code, 0, result.stderr);
  const org = await loadOrg(world.root);
  assert.equal(
    org!.agents.map((agent) => [agent.id, agent.name]),
    [
      ['main', 'Main'],
      ['research', 'Researcher'],
    ],
  );
  assert.is(org!.aof.daemon.gatewayUrl, 'http://127.0.0.1:18789');
  assert.match(result.stdout, /org-chart\.yaml \(new\): agents \+= main, research/);
  assert.not.match(result.stdout, /Backup of the previous org chart/);
});

test('org chart agents the gateway lacks are listed, then added with --yes; local command agents are not', async () => {
  const world = makeWorld('{ gateway: { port: 19000 }, agents: { entries: { main: {} } } }', ORG);
  const plan = await init(world, '--dry-run');
  assert.match(
    plan.stdout,
    /^planned {7}gateway agents\n {16}agents\.entries \+= dev \(in the org chart, not in the gateway\)$/m,
  );
  const result = await init(world, '--yes');
  assert.is(result.code, 0, result.stderr);
  const config = readConfig(world);
  assert.equal(Object.keys(config.agents.entries), ['main', 'dev']);
  assert.equal(config.agents.entries.dev, { name: 'Developer' });
  assert.is(config.agents.ownership, 'explicit', 'a roster of several agents needs an owner');
  assert.is(config.agents.defaults.systemAgent.agentId, 'main');
  assert.equal(
    config.agents.entries.main.subagents.allowAgents,
    ['dev', 'main'],
    'main may spawn every org chart agent of the gateway',
  );
  assert.match(result.stdout, /note: agents\.ownership set to "explicit"/);
  const org = await loadOrg(world.root);
  assert.equal(
    org!.agents.map((agent) => agent.id),
    ['dev', 'runner', 'main'],
  );
  assert.equal(org!.agents[1]!.command, ['node', 'agent.js'], 'the rest of the chart is kept');
  assert.is(org!.aof.daemon.gatewayUrl, 'http://127.0.0.1:19000');
  const backup = readdirSync(join(world.root, 'org')).find((name) => name.endsWith('.bak'));
  assert.is(readFileSync(join(world.root, 'org', backup!), 'utf8'), ORG);
  assert.match(
    result.stdout,
    `Backup of the previous org chart (the rewrite does not keep its comments): ${join(world.root, 'org', backup!)}`,
  );
});

test('a roster of several agents with no owner gets agents.ownership "explicit", which the gateway requires', async () => {
  const world = makeWorld('{ agents: { entries: { main: {}, dev: {} } } }', ORG);
  const result = await init(world, '--yes');
  assert.match(
    result.stdout,
    /^done {10}gateway agents\n {16}agents\.ownership = "explicit" \(several agents, no owner named\)$/m,
  );
  const config = readConfig(world);
  assert.is(config.agents.ownership, 'explicit');
  assert.is(config.agents.defaults.systemAgent.agentId, 'main');
  assert.match((await init(world, '--yes')).stdout, /^already done  gateway agents$/m);
});

test('a legacy agents.list roster grows in its own form', async () => {
  const world = makeWorld('{ agents: { list: [{ id: "main", default: true }] } }', ORG);
  assert.is((await init(world, '--yes')).code, 0);
  const config = readConfig(world);
  assert.equal(
    config.agents.list.map((agent: { id: string }) => agent.id),
    ['main', 'dev'],
  );
  assert.is(config.agents.ownership, undefined, 'the default marker already names the owner');
  assert.equal(config.agents.list[0].subagents.allowAgents, ['dev', 'main']);
});

test('allowAgents ["*"] is already enough; a gateway agent id svc cannot use is named and not added', async () => {
  const world = makeWorld(
    '{ agents: { ownership: "explicit", entries: { main: { subagents: { allowAgents: ["*"] } }, "a b": {} } } }',
    ORG,
  );
  const result = await init(world, '--yes');
  assert.is(result.code, 0, result.stderr);
  assert.equal(readConfig(world).agents.entries.main.subagents.allowAgents, ['*']);
  assert.match(result.stdout, /note: not added \(ids svc cannot use\): a b/);
  assert.equal(
    (await loadOrg(world.root))!.agents.map((agent) => agent.id),
    ['dev', 'runner', 'main'],
  );
});

test('an invalid org chart skips the org steps with why, and the rest is still done', async () => {
  const world = makeWorld('{}', 'schemaVersion: 2\nagents: []\n');
  const result = await init(world, '--yes');
  assert.is(result.code, 0, result.stderr);
  assert.match(
    result.stdout,
    /^skipped {7}org chart \(the org chart is invalid \(.*schemaVersion.*\); fix it \(`svc org validate`\) and run svc init again\)$/m,
  );
  assert.match(result.stdout, /^done {10}plugin$/m);
  assert.is(readFileSync(join(world.root, 'org', 'org-chart.yaml'), 'utf8'), 'schemaVersion: 2\nagents: []\n');
});

test('a token given as ${VAR} is not copied; the step says what to do', async () => {
  const world = makeWorld(
    '{ gateway: { auth: { token: "${GATEWAY_TOKEN}" } } }',
    'schemaVersion: 1\naof:\n  daemon:\n    gatewayUrl: http://127.0.0.1:1\n',
  );
  const result = await init(world, '--yes');
  assert.match(
    result.stdout,
    /^skipped {7}standalone adapter \(gateway\.auth\.token is not a plain string here: put the token in data\/daemon\.env/m,
  );
  assert.not.ok(existsSync(join(world.root, 'data', 'daemon.env')));
});

test('daemon.env keeps its other lines and gets the token replaced', async () => {
  const world = makeWorld('{ gateway: { auth: { token: "new" } } }');
  mkdirSync(join(world.root, 'data'), { recursive: true });
  writeFileSync(join(world.root, 'data', 'daemon.env'), 'DEBUG=svc:*\nSVC_GATEWAY_TOKEN=old\n');
  assert.is((await init(world, '--yes')).code, 0);
  assert.is(readFileSync(join(world.root, 'data', 'daemon.env'), 'utf8'), 'DEBUG=svc:*\nSVC_GATEWAY_TOKEN=new\n');
});

test('on a terminal it asks before each step and applies only what was accepted', async () => {
  const world = makeWorld('{}');
  const before = snapshot(world);
  // plugin: yes; org chart: no; allow-list: no; memory: yes with the defaults; skill: no; standalone: no
  const { code, output } = await onTerminal(world, ['y', 'n', 'n', 'y', '', '', '', 'n', 'n']);
  assert.is(code, 0, output);
  assert.match(output, /plugin:\r?\n {2}plugins\.load\.paths \+= /);
  const config = readConfig(world);
  assert.is(config.plugins.entries.svc.enabled, true);
  assert.equal(config.plugins.entries.svc.config.modules, { memory: { enabled: true } });
  assert.equal(config.plugins.entries.svc.config.memory.embedding, {
    provider: 'openai',
    model: 'text-embedding-3-small',
    apiKey: '${OPENAI_API_KEY}',
  });
  assert.is(config.gateway, undefined, 'the declined allow-list step changed nothing');
  assert.match(output, /skipped {7}org chart \(declined\)/);
  assert.not.ok(existsSync(join(world.state, 'skills')));
  assert.not.ok(existsSync(join(world.root, 'org')));
  assert.not.equal(snapshot(world), before);
});

test('Ctrl+D at a prompt stops the wizard and writes nothing', async () => {
  const world = makeWorld('{}');
  const before = snapshot(world);
  const { code, output } = await onTerminal(world, ['\u0004']);
  assert.is(code, 1);
  assert.match(output, 'svc init stopped at a prompt: nothing was written.');
  assert.equal(snapshot(world), before);
});

test('a config changed by someone else while the wizard waits is not overwritten', async () => {
  const world = makeWorld('{}');
  const edit = () => {
    writeFileSync(world.config, '{ gateway: { mode: "local" } }');
    return 'y';
  };
  const { code, output } = await onTerminal(world, [edit, 'n', 'n', 'n', 'n', 'n', 'n']);
  assert.is(code, 1, output);
  assert.match(output, `${world.config} changed while svc init ran; nothing was written.`);
  assert.is(readFileSync(world.config, 'utf8'), '{ gateway: { mode: "local" } }');
  assert.is(readdirSync(world.state).filter((name) => name.endsWith('.bak')).length, 0);
});

// --- internal ---

/** Runs the built `svc init` on a pseudo-terminal (`script`), answering each prompt when it appears. */
async function onTerminal(
  world: InitWorld,
  answers: Array<string | (() => string)>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn('script', ['-qec', `${process.execPath} ${SVC_BIN} init`, '/dev/null'], {
    env: { ...process.env, ...world.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let answered = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    // A prompt ends with "[default] " (readline may follow it with a cursor move).
    const asked = (output.match(/\[[^\]\n]*\] (?=\u001b\[\d+G|$)/g) ?? []).length;
    while (answered < asked && answered < answers.length) {
      const answer = answers[answered++]!;
      child.stdin.write(typeof answer === 'function' ? `${answer()}\r` : answer === '\u0004' ? answer : `${answer}\r`);
    }
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000); // a prompt nobody answers must not hang the suite
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(guard);
  return { code, output };
}

test.run();
