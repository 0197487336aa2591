import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents, type SvcEvent } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { writeOrg } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { afterPolls, call, closeDaemons, healthy, startChild, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';

const FAST = { bootWindowMs: 200, pollIntervalMs: 150 };

/** An org chart whose `dev` is a gateway agent (never dispatched here: tasks are claimed), with project `default`'s SLA. */
function writeSlaOrg(root: string, sla: Record<string, unknown>): void {
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev' }], aof: { daemon: FAST, projects: { default: { sla } } } });
}

/** A task claimed by `dev` (in progress under a lease, no agent process), with an optional task-level limit. */
async function claimed(root: string, title: string, maxInProgressMs?: number): Promise<string> {
  const store = createStore({ root });
  const id = (
    await store.create({
      title,
      status: 'ready',
      routing: { agent: 'dev' },
      createdBy: 'test',
      ...(maxInProgressMs ? { sla: { maxInProgressMs } } : {}),
    })
  ).task.id;
  const out = await svc(root, 'task', 'claim', id, '--agent', 'dev');
  assert.is(out.code, 0, out.stderr);
  return id;
}

async function violations(root: string, id: string): Promise<SvcEvent[]> {
  return readEvents(root, { taskId: id, type: 'sla.violation' });
}

function alertsOf(output: string, id: string): number {
  return output.split('\n').filter((line) => line.startsWith(`[AOF] SLA VIOLATION: ${id} `)).length;
}

const flow = suite('e2e.sla');
flow.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

flow(
  'a task past its limit gives one alert and one event per rate window, none once it is done; the task is never moved',
  async () => {
    const root = tempRoot();
    const windowMs = 2400;
    writeSlaOrg(root, { defaultMaxInProgressMs: 500, alerting: { rateLimitMinutes: windowMs / 60_000 } });
    const own = await claimed(root, 'Own limit', 300);
    const byProject = await claimed(root, 'Project limit');
    let stderr = '';
    await startTestDaemon(root, { tools: TOOLS, env: process.env, stderr: (text) => void (stderr += text) });
    const [first] = await within(
      10_000,
      async () => {
        const found = await violations(root, own);
        return found.length ? found : null;
      },
      'first violation',
    );
    assert.equal(Object.keys(first!.payload).sort(), ['agent', 'duration', 'limit', 'timestamp']);
    assert.is(first!.payload.limit, 300);
    assert.is(first!.payload.agent, 'dev');
    assert.ok(Number(first!.payload.duration) > 300);
    assert.is(first!.payload.timestamp, Date.parse(first!.timestamp));
    const [projectFirst] = await within(
      10_000,
      async () => {
        const found = await violations(root, byProject);
        return found.length ? found : null;
      },
      'project violation',
    );
    assert.is(projectFirst!.payload.limit, 500, 'no task limit: the project default applies');
    assert.match(
      stderr,
      new RegExp(
        `\\[AOF\\] SLA VIOLATION: ${own} "Own limit"\\n\\[AOF\\] SLA VIOLATION:   in progress for \\d+(\\.\\d)? s \\(limit 0\\.3 s, task\\), agent: dev\\n`,
      ),
    );
    const second = await within(15_000, async () => (await violations(root, own))[1], 'second violation');
    assert.ok(Date.parse(second.timestamp) - Date.parse(first!.timestamp) >= windowMs, 'one event per window');
    assert.is(
      await createStore({ root })
        .get(own)
        .then((t) => t.status),
      'in-progress',
      'alerts never move the task',
    );
    const { task } = await createStore({ root }).get(own);
    const done = await call(root, 'POST', '/v1/tool/invoke', {
      tool: 'svc_task_complete',
      params: { taskId: own, sessionId: task.lease!.sessionId },
    });
    assert.is(done.status, 200, JSON.stringify(done.body));
    const atCompletion = await violations(root, own);
    const quietUntil = Date.now() + windowMs + 500;
    await within(15_000, () => Date.now() > quietUntil, 'a full window after the completion');
    await afterPolls(root);
    const all = await violations(root, own);
    assert.is(all.length, atCompletion.length, 'no alert once done');
    for (let i = 1; i < all.length; i++)
      assert.ok(Date.parse(all[i]!.timestamp) - Date.parse(all[i - 1]!.timestamp) >= windowMs, 'one event per window');
    assert.is(alertsOf(stderr, own), all.length, 'one console alert per event');
  },
);

flow('the rate window survives a daemon killed and restarted', async () => {
  const root = tempRoot();
  const windowMs = 9000;
  writeSlaOrg(root, { alerting: { rateLimitMinutes: windowMs / 60_000 } });
  const id = await claimed(root, 'Hung', 200);
  const first = startChild(root);
  await healthy(root);
  const [event] = await within(
    15_000,
    async () => {
      const found = await violations(root, id);
      return found.length ? found : null;
    },
    'first violation',
  );
  await within(5000, () => alertsOf(first.output(), id) === 1, 'alert on the daemon stderr');
  assert.ok(existsSync(toPaths(root).slaAlerts));
  assert.ok(id in JSON.parse(readFileSync(toPaths(root).slaAlerts, 'utf8')));
  await first.kill();
  const second = startChild(root);
  await healthy(root);
  await afterPolls(root);
  const soon = await violations(root, id);
  const restartedAt = Date.now();
  if (restartedAt - Date.parse(event!.timestamp) < windowMs) {
    assert.is(soon.length, 1, 'no repeat within the window after the restart');
    assert.is(alertsOf(second.output(), id), 0);
  }
  const next = await within(30_000, async () => (await violations(root, id))[1], 'violation of the next window');
  assert.ok(Date.parse(next.timestamp) - Date.parse(event!.timestamp) >= windowMs, 'one per window across the restart');
  await within(5000, () => alertsOf(second.output(), id) === 1, 'the restarted daemon alerts in the next window');
});

flow('onViolation other than alert is refused by svc org validate and by the daemon at start', async () => {
  const root = tempRoot();
  writeSlaOrg(root, { onViolation: 'block' });
  const validate = await svc(root, 'org', 'validate');
  assert.is(validate.code, 1);
  assert.match(validate.stderr, /aof\.projects\.default\.sla\.onViolation: only "alert" is supported, found "block"/);
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const { body } = await call(root, 'GET', '/status');
  const config = (body as { config: { orgChart: string; problems: string[]; using?: string } }).config;
  assert.is(config.orgChart, 'invalid');
  assert.is(config.using, 'none');
  assert.ok(
    config.problems.some((p) =>
      /aof\.projects\.default\.sla\.onViolation: only "alert" is supported, found "block"/.test(p),
    ),
    config.problems.join('\n'),
  );
  await logShows(toPaths(root).daemonLog, /org chart org\/org-chart\.yaml is invalid and no valid chart is loaded/);
});

flow('a violation is alerted while the event log cannot be appended; its event is appended once it can', async () => {
  const root = tempRoot();
  writeSlaOrg(root, { alerting: { rateLimitMinutes: 10 } });
  const id = await claimed(root, 'Unlogged', 200);
  const paths = toPaths(root);
  rmSync(paths.events, { recursive: true, force: true });
  writeFileSync(paths.events, 'not a directory\n'); // every append fails with ENOTDIR
  let stderr = '';
  await startTestDaemon(root, { tools: TOOLS, env: process.env, stderr: (text) => void (stderr += text) });
  await within(15_000, () => alertsOf(stderr, id) === 1, 'the console alert');
  assert.ok(id in JSON.parse(readFileSync(paths.slaAlerts, 'utf8')), 'the rate window is recorded');
  await logShows(paths.daemonLog, /error events\.append_failed .*ENOTDIR/);
  rmSync(paths.events);
  mkdirSync(paths.events, { mode: 0o700 });
  const [event] = await within(
    10_000,
    async () => {
      const found = await violations(root, id);
      return found.length ? found : null;
    },
    'the violation event after the repair',
  );
  assert.is(event!.payload.limit, 200);
  await afterPolls(root);
  assert.is((await violations(root, id)).length, 1, 'one event, not repeated');
  assert.is(alertsOf(stderr, id), 1, 'one alert in the window');
});

flow.run();
