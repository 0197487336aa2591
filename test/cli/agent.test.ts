import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { quittingAgent, SVC_BIN, writeOrg } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { call, closeDaemons, healthy, startChild, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';

/** argv of an agent that completes its task once `<SVC_HOME>/go` exists (so a test decides when a run ends). */
function gatedAgent(): string[] {
  const script = `
    const fs = require('node:fs');
    const { execFileSync } = require('node:child_process');
    const params = { taskId: process.env.SVC_TASK_ID, sessionId: process.env.SVC_SESSION_ID, summary: 'done', actor: process.env.SVC_AGENT };
    const timer = setInterval(() => {
      if (!fs.existsSync(process.env.SVC_HOME + '/go')) return;
      clearInterval(timer);
      execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, 'tool', 'svc_task_complete', JSON.stringify(params)], { stdio: 'inherit' });
    }, 50);
  `;
  return [process.execPath, '-e', script];
}

/** dev and dev2 run `gatedAgent`; the poll is an hour apart, so only the pause watch and task changes make ticks. */
function writeAgents(root: string): void {
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: gatedAgent() }, { id: 'dev2', name: 'Dev 2', command: gatedAgent() }], aof: { daemon: { bootWindowMs: 200, pollIntervalMs: 3_600_000 } } });
}

async function readyTask(root: string, title: string, agent = 'dev'): Promise<string> {
  const id = (await svc(root, 'task', 'create', title, '--agent', agent)).stdout.split('\n')[0]!;
  assert.is((await svc(root, 'task', 'promote', id)).code, 0);
  return id;
}

const listed = async (root: string) => JSON.parse((await svc(root, 'task', 'list', '--all', '--json')).stdout) as { id: string; status: string }[];
const statusOf = (root: string, id: string) => ['ready', 'in-progress', 'done'].find((s) => existsSync(toPaths(root).taskFile(s as never, id)));

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
  assert.equal((await readEvents(root)).filter((e) => e.type.startsWith('agent.')), []);
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

files('pause holds the agent\'s tasks in the plan, list shows it, resume releases it; each logs one event', async () => {
  const root = tempRoot();
  writeAgents(root);
  const id = await readyTask(root, 'Held');
  const paused = await svc(root, 'agent', 'pause', 'dev', '--reason', 'rotating keys', '--json');
  assert.is(paused.code, 0, paused.stderr);
  assert.equal({ ...JSON.parse(paused.stdout), pause: { ...JSON.parse(paused.stdout).pause, since: '-' } }, { agent: 'dev', paused: true, changed: true, pause: { agent: 'dev', since: '-', by: 'operator', reason: 'rotating keys' } });
  const again = await svc(root, 'agent', 'pause', 'dev');
  assert.match(again.stdout, /agent dev was already paused since .* \(rotating keys\)/);
  const plan = await svc(root, 'scheduler', 'run');
  assert.match(plan.stdout, new RegExp(`hold        ${id}: agent-paused: agent dev is paused since \\S+ by operator \\(rotating keys\\)`));
  const list = JSON.parse((await svc(root, 'agent', 'list', '--json')).stdout) as { agents: { id: string; paused: boolean; runs: string[] }[] };
  assert.equal(list.agents.map((a) => [a.id, a.paused, a.runs.length]), [['dev', true, 0], ['dev2', false, 0]]);
  assert.match((await svc(root, 'agent', 'list')).stdout, /dev +paused +0 +- +0\n {2}paused since \S+ by operator: rotating keys\n/);
  assert.match((await svc(root, 'agent', 'resume', 'dev')).stdout, /agent dev resumed/);
  assert.match((await svc(root, 'agent', 'resume', 'dev')).stdout, /agent dev was not paused: nothing changed/);
  assert.match((await svc(root, 'scheduler', 'run')).stdout, new RegExp(`dispatch    ${id} -> dev \\(command\\)`));
  const events = (await readEvents(root)).filter((e) => e.type.startsWith('agent.'));
  assert.equal(events.map((e) => [e.type, e.actor, e.payload]), [['agent.paused', 'operator', { agent: 'dev', reason: 'rotating keys' }], ['agent.resumed', 'operator', { agent: 'dev' }]]);
});

files('list counts failed dispatches in a row from the event log; a paused agent removed from the chart is listed and can be resumed', async () => {
  const root = tempRoot();
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: quittingAgent() }, { id: 'old', name: 'Old' }] });
  const id = await readyTask(root, 'Fails once');
  assert.is((await svc(root, 'scheduler', 'run', '--active')).code, 0);
  assert.is((await svc(root, 'agent', 'pause', 'old')).code, 0);
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: quittingAgent() }] });
  const rows = JSON.parse((await svc(root, 'agent', 'list', '--json')).stdout).agents as { id: string; known: boolean; failuresInARow: number; lastDispatch: { taskId: string } | null }[];
  assert.equal(rows.map((r) => [r.id, r.known, r.failuresInARow, r.lastDispatch?.taskId ?? null]), [['dev', true, 1, id], ['old', false, 0, null]]);
  assert.match((await svc(root, 'agent', 'list')).stdout, /old +paused +0 +- +0\n/);
  assert.match((await svc(root, 'agent', 'resume', 'old')).stdout, /agent old resumed/);
  assert.is((await svc(root, 'agent', 'pause', 'old')).code, 1, 'once resumed, an agent not in the chart cannot be paused again');
});

const live = suite('cli.agent with a daemon');
live.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

live('a pause made by the command line stops new dispatches at once, running runs finish, resume dispatches without a poll', async () => {
  const root = tempRoot();
  writeAgents(root);
  const daemon = await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
  const first = await readyTask(root, 'Runs before the pause');
  await within(15_000, () => statusOf(root, first) === 'in-progress', 'the first task dispatched');
  assert.is((await svc(root, 'agent', 'pause', 'dev', '--reason', 'maintenance')).code, 0);
  await logShows(daemon.paths.daemonLog, /agent pauses changed: dev paused/);
  const other = await readyTask(root, 'Another agent is not paused', 'dev2');
  writeFileSync(`${root}/go`, '');
  await within(15_000, () => statusOf(root, first) === 'done' && statusOf(root, other) === 'done', 'the running run and dev2\'s task finish');
  await within(15_000, async () => (await listed(root)).filter((row) => row.status === 'done').length === 2, 'the daemon\'s index sees both done');
  const second = await readyTask(root, 'Waits for the resume'); // its tick plans before the next command runs
  const plan = await svc(root, 'scheduler', 'run');
  assert.match(plan.stdout, new RegExp(`hold        ${second}: agent-paused: agent dev is paused .*\\(maintenance\\)`));
  assert.match(plan.stdout, /by the running daemon/);
  assert.match((await svc(root, 'daemon', 'status')).stdout, /\nPaused: dev since \S+ by operator \(maintenance\)\n/);
  assert.is(statusOf(root, second), 'ready');
  assert.is((await svc(root, 'agent', 'resume', 'dev')).code, 0);
  await within(15_000, () => statusOf(root, second) === 'done', 'the held task dispatched after the resume');
  const rows = JSON.parse((await svc(root, 'agent', 'list', '--json')).stdout).agents as { id: string; paused: boolean; lastDispatch: { taskId: string } }[];
  assert.equal(rows.map((r) => [r.id, r.paused, r.lastDispatch.taskId]), [['dev', false, second], ['dev2', false, other]]);
});

live('the pause survives a daemon restart and is shown by daemon status', async () => {
  const root = tempRoot();
  writeAgents(root);
  assert.is((await svc(root, 'agent', 'pause', 'dev', '--reason', 'over budget')).code, 0);
  const id = await readyTask(root, 'Held across restarts');
  let daemon = startChild(root);
  await healthy(root);
  await within(15_000, async () => /Paused: dev since \S+ by operator \(over budget\)/.test((await svc(root, 'daemon', 'status')).stdout), 'the Paused line once the scheduler has read the file');
  const status = JSON.parse((await svc(root, 'daemon', 'status', '--json')).stdout) as { pausedAgents: { agent: string; reason: string }[] };
  assert.equal(status.pausedAgents.map((p) => [p.agent, p.reason]), [['dev', 'over budget']]);
  await daemon.kill();
  daemon = startChild(root);
  await healthy(root);
  await within(15_000, async () => {
    const body = (await call(root, 'GET', '/status')).body as { mode: string; config?: unknown };
    return body.config !== undefined && body.mode === 'standalone'; // the scheduler runs (config) and its boot window is over (its end asks for a tick)
  }, 'the scheduler started and out of its boot window');
  const replan = await svc(root, 'scheduler', 'run');
  assert.match(replan.stdout, new RegExp(`hold        ${id}: agent-paused`), replan.stdout + replan.stderr);
  assert.is(statusOf(root, id), 'ready');
  writeFileSync(`${root}/go`, '');
  assert.is((await svc(root, 'agent', 'resume', 'dev')).code, 0);
  await within(15_000, () => statusOf(root, id) === 'done', 'dispatched after the resume');
  await daemon.kill();
});

bad.run();
files.run();
live.run();
