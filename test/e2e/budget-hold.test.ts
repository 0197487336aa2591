import { mkdirSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toIdDate } from '../../lib/core/ids.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { completingAgent, writeOrg } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';

const test = suite('e2e.budget hold');
test.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

/** An org chart where coder may use `tokensPerDay` tokens a day; ticks come from task changes and a quick poll. */
function writeCoder(root: string, tokensPerDay: number): void {
  writeOrg(root, {
    agents: [{ id: 'coder', name: 'Coder', command: completingAgent(), budget: { tokensPerDay } }],
    aof: { daemon: { bootWindowMs: 200, pollIntervalMs: 300 } },
  });
}

/** A run of coder today, as the event log keeps it. */
function writeRunToday(root: string, tokens: number): void {
  const now = new Date();
  const event = {
    timestamp: now.toISOString(),
    type: 'run.usage',
    taskId: 'TASK-2026-01-01-001',
    actor: 'system',
    payload: {
      agent: 'coder',
      runtime: 'codex',
      model: 'gpt-6',
      sessionId: 'thread-1',
      run: 's-1',
      inputTokens: tokens,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: null,
    },
  };
  mkdirSync(toPaths(root).events, { recursive: true });
  writeFileSync(toPaths(root).eventFile(toIdDate(now)), `${JSON.stringify(event)}\n`);
}

test('an agent whose daily budget the event log shows spent gets no task until the org chart raises it', async () => {
  const root = tempRoot();
  writeCoder(root, 1000);
  writeRunToday(root, 1500);
  const daemon = await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
  const id = (await svc(root, 'task', 'create', 'Over budget', '--agent', 'coder')).stdout.split('\n')[0]!;
  assert.is((await svc(root, 'task', 'promote', id)).code, 0);
  const plan = await svc(root, 'scheduler', 'run');
  assert.match(plan.stdout, `${id}: budget: agent coder spent 1,500 of 1,000 tokens today (tokensPerDay)`);
  await logShows(daemon.paths.daemonLog, new RegExp(`${id} held in ready, reason budget: agent coder spent 1,500`));
  assert.is(JSON.parse((await svc(root, 'task', 'show', id, '--json')).stdout).status, 'ready');
  writeCoder(root, 5000);
  await within(
    15_000,
    async () => JSON.parse((await svc(root, 'task', 'show', id, '--json')).stdout).status === 'done',
    'the task dispatched and done once the budget is raised',
  );
});

test('a run.usage the daemon records counts at once: the next task of the agent is held', async () => {
  const root = tempRoot();
  writeCoder(root, 1000);
  const daemon = await startTestDaemon(root, {
    tools: [...TOOLS, ...OPERATOR_TOOLS],
    env: process.env,
    schedule: true,
  });
  const usage = { inputTokens: 600, outputTokens: 500, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null };
  const payload = { agent: 'coder', runtime: 'codex', model: null, sessionId: null, run: 's-2', ...usage };
  await daemon.store.events.record(new Date(), [{ type: 'run.usage', actor: 'system', payload }]);
  const id = (await svc(root, 'task', 'create', 'Next', '--agent', 'coder')).stdout.split('\n')[0]!;
  assert.is((await svc(root, 'task', 'promote', id)).code, 0);
  const plan = await svc(root, 'scheduler', 'run');
  assert.match(plan.stdout, `${id}: budget: agent coder spent 1,100 of 1,000 tokens today (tokensPerDay)`);
});

test('without a daemon, svc scheduler run shows the budget hold and --active dispatches nothing to the agent', async () => {
  const root = tempRoot();
  writeCoder(root, 1000);
  writeRunToday(root, 1200);
  const id = (await svc(root, 'task', 'create', 'Over budget', '--agent', 'coder')).stdout.split('\n')[0]!;
  assert.is((await svc(root, 'task', 'promote', id)).code, 0);
  const plan = await svc(root, 'scheduler', 'run');
  assert.match(plan.stdout, `${id}: budget: agent coder spent 1,200 of 1,000 tokens today (tokensPerDay)`);
  const active = await svc(root, 'scheduler', 'run', '--active');
  assert.is(active.code, 0, active.stderr);
  assert.is(JSON.parse((await svc(root, 'task', 'show', id, '--json')).stdout).status, 'ready');
});

test.run();
