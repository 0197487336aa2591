import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HOLD_REASONS } from '../../../lib/engine/plan.js';
import { blockTask } from '../../../lib/store/changes/ops.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { writeRecord } from '../../../lib/workspace/records.js';
import { completingAgent, writeOrg } from '../../helpers/agents.js';
import { svc } from '../../helpers/cli.js';
import { call, closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { parsePrometheus, valueOf, type Scrape } from '../../helpers/prometheus.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

const FAST = { bootWindowMs: 200, pollIntervalMs: 150, spawnTimeoutMs: 1500 };

async function scrape(root: string): Promise<Scrape> {
  const { status, body } = await call(root, 'GET', '/metrics');
  assert.is(status, 200, String(body));
  return parsePrometheus(String(body));
}

async function dispatch(root: string, params: Record<string, unknown>): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { brief: 'Do it.', ...params },
  });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

const work = suite('daemon.metrics of checks and waiting work');
work.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

work('check runs count by result, failures by the check that failed, durations in a histogram', async () => {
  const root = tempRoot();
  const exit = (code: number) => [process.execPath, '-e', `process.exit(${code})`];
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: completingAgent() }],
    aof: {
      daemon: { ...FAST, maxCheckFailures: 1 },
      checks: { lint: { run: exit(0), cwd: root }, tests: { run: exit(3), cwd: root } },
    },
  });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const before = await scrape(root);
  assert.is(before.types.get('svc_check_runs_total'), 'counter');
  assert.is(before.types.get('svc_check_duration_seconds'), 'histogram');
  await dispatch(root, { title: 'Passes', agent: 'dev', verify: ['lint'] });
  await dispatch(root, { title: 'Fails', agent: 'dev', verify: ['lint', 'tests'] });
  const after = await within(
    20_000,
    async () => {
      const now = await scrape(root);
      return (
        valueOf(now, 'svc_check_runs_total', { result: 'passed' }) === 1 &&
        valueOf(now, 'svc_check_runs_total', { result: 'failed' }) === 1 &&
        now
      );
    },
    'one run passed and one failed',
  );
  assert.is(valueOf(after, 'svc_check_failures_total', { check: 'tests' }), 1);
  assert.is(valueOf(after, 'svc_check_failures_total', { check: 'lint' }), undefined);
  assert.is(valueOf(after, 'svc_check_duration_seconds_count', { result: 'passed' }), 1);
  assert.is(valueOf(after, 'svc_check_duration_seconds_count', { result: 'failed' }), 1);
});

work(
  'held ready tasks by reason (every reason present), tasks awaiting approval, paused agents and kept worktrees',
  async () => {
    const root = tempRoot();
    writeOrg(root, {
      agents: [
        { id: 'dev', name: 'Dev', command: completingAgent() },
        { id: 'ops', name: 'Ops', command: completingAgent() },
      ],
      aof: { daemon: FAST },
    });
    const store = createStore({ root });
    const gated = await store.create({
      title: 'Waits for sign-off',
      createdBy: 'test',
      metadata: { awaiting: { gate: 'signoff', since: '2026-11-21T10:00:00.000Z' } },
    });
    await blockTask(store, gated.task.id, { actor: 'test', reason: 'waits for approval at gate signoff' });
    await writeRecord(toPaths(root).workspaces, {
      taskId: 'TASK-2026-11-20-001',
      name: 'app',
      repo: root,
      path: `${root}/wt`,
      branch: 'svc/x',
      base: 'main',
      host: 'h',
      createdAt: '2026-11-20T00:00:00.000Z',
      kept: { reason: 'uncommitted changes when the task was done', at: '2026-11-20T01:00:00.000Z' },
    });
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    assert.is((await svc(root, 'agent', 'pause', 'ops', '--reason', 'on leave')).code, 0);
    const first = await dispatch(root, {
      title: 'First',
      agent: 'dev',
      notBefore: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await dispatch(root, { title: 'After the first', agent: 'dev', dependsOn: [first] });
    await dispatch(root, { title: 'For the paused agent', agent: 'ops' });
    const now = await within(
      15_000,
      async () => {
        const scraped = await scrape(root);
        return (
          valueOf(scraped, 'svc_ready_held_tasks', { reason: 'agent-paused' }) === 1 &&
          valueOf(scraped, 'svc_ready_held_tasks', { reason: 'dependencies' }) === 1 &&
          scraped
        );
      },
      'the holds of the last tick',
    );
    assert.is(valueOf(now, 'svc_ready_held_tasks', { reason: 'not-before' }), 1);
    assert.is(valueOf(now, 'svc_ready_held_tasks', { reason: 'no-route' }), 0, 'every reason is a series');
    assert.is(now.samples.filter((s) => s.name === 'svc_ready_held_tasks').length, HOLD_REASONS.length);
    assert.is(valueOf(now, 'svc_tasks_awaiting_approval'), 1);
    await within(
      15_000,
      async () => valueOf(await scrape(root), 'svc_agents_paused') === 1,
      'the pause seen by the daemon',
    );
    assert.is(valueOf(now, 'svc_worktrees_kept'), 1);
  },
);

work.run();
