import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { SVC_BIN, writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, runSvc, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';

// A run that handed its task on is let to finish (docs/scheduler.md, "One run per task"): its
// completion is answered, it has runExitGraceMs to exit by itself while the next dispatch of the
// task waits, and the checks of its completion start once it has exited.
const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 300 };

/**
 * argv of an agent that completes its task (`svc tool svc_task_complete`, its output kept in
 * `<SVC_HOME>/<task id>.<role>-out`), then works on for `afterMs`, writes `<task id>.<role>-after`
 * (the time) and exits 0. It first writes `<task id>.<role>-start` (the time).
 */
function finishingAgent(role: string, afterMs: number, params: Record<string, unknown> = {}): string[] {
  const script = `
    const fs = require('node:fs');
    const { execFileSync } = require('node:child_process');
    const env = process.env;
    const base = env.SVC_HOME + '/' + env.SVC_TASK_ID + '.${role}';
    fs.writeFileSync(base + '-start', String(Date.now()));
    const params = { taskId: env.SVC_TASK_ID, sessionId: env.SVC_SESSION_ID, actor: env.SVC_AGENT, summary: '${role} done', ...${JSON.stringify(params)} };
    const out = execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, 'tool', 'svc_task_complete', JSON.stringify(params)], { encoding: 'utf8' });
    fs.writeFileSync(base + '-out', out);
    setTimeout(() => { fs.writeFileSync(base + '-after', String(Date.now())); process.exit(0); }, ${afterMs});
  `;
  return [process.execPath, '-e', script];
}

/** An org chart with an implementer and a reviewer and the workflow implement -> review. */
function writeWorkflow(root: string, implementer: string[], daemon: Record<string, unknown>): void {
  writeOrg(root, {
    agents: [
      { id: 'impl', name: 'Impl', command: implementer },
      { id: 'rev', name: 'Rev', command: finishingAgent('rev', 0, { outcome: 'complete', callerRole: 'reviewer' }) },
    ],
    roles: { implementer: { agents: ['impl'] }, reviewer: { agents: ['rev'] } },
    aof: { daemon: { ...FAST, ...daemon } },
  });
  mkdirSync(`${root}/org/workflows`, { recursive: true });
  writeFileSync(
    `${root}/org/workflows/flow.yaml`,
    'workflow:\n  name: flow\n  gates:\n    - id: implement\n      role: implementer\n    - id: review\n      role: reviewer\n',
  );
}

async function invoke(root: string, tool: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool, params });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: Record<string, unknown> }).result;
}

async function createReady(root: string, params: Record<string, unknown>): Promise<string> {
  const id = String((await invoke(root, 'operator_task_create', params)).id);
  await invoke(root, 'operator_task_status', { taskId: id, status: 'ready' });
  return id;
}

async function untilDone(root: string, id: string): Promise<void> {
  await within(30_000, async () => (await createStore({ root }).get(id)).status === 'done', `${id} to be done`);
}

/** The end line of the run log of the first dispatch of `id`. */
async function firstRunEnd(root: string, id: string): Promise<string> {
  const [first] = await readEvents(root, { taskId: id, type: 'task.dispatched' });
  const dir = `${root}/data/logs/runs/${id}`;
  const name = readdirSync(dir).find((file) => file.startsWith(`${String(first!.payload.sessionId)}-`))!;
  return readFileSync(`${dir}/${name}`, 'utf8').trim().split('\n').at(-1)!;
}

const time = (file: string) => Number(readFileSync(file, 'utf8'));

const finish = suite('e2e.a run that handed its task on');
finish.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

finish(
  'an implementer that works on after its completion finishes: its call answered, its file written, its own exit in its log; the reviewer waits for it',
  async () => {
    const root = tempRoot();
    writeWorkflow(root, finishingAgent('impl', 700, { outcome: 'complete', callerRole: 'implementer' }), {});
    await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
    const id = await createReady(root, { title: 'Work on after', workflow: 'flow' });
    await untilDone(root, id);
    assert.ok(existsSync(`${root}/${id}.impl-after`), 'the work after the completion was done');
    assert.is(
      (JSON.parse(readFileSync(`${root}/${id}.impl-out`, 'utf8')) as { status: string }).status,
      'ready',
      'the completion call succeeded',
    );
    assert.match(await firstRunEnd(root, id), 'svc run ended: exit code 0');
    assert.ok(
      time(`${root}/${id}.rev-start`) >= time(`${root}/${id}.impl-after`),
      'the reviewer started after the implementer exited',
    );
    await logShows(`${root}/data/logs/daemon.log`, /handed it on \(now ready\); it may exit by itself until/);
  },
);

finish(
  'a run still alive past runExitGraceMs after handing its task on is ended, and the next dispatch then goes',
  async () => {
    const root = tempRoot();
    writeWorkflow(root, finishingAgent('impl', 60_000, { outcome: 'complete', callerRole: 'implementer' }), {
      runExitGraceMs: 2500,
    });
    await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
    const id = await createReady(root, { title: 'Lingers', workflow: 'flow' });
    await within(20_000, () => existsSync(`${root}/${id}.impl-out`), 'the completion');
    const plan = await runSvc({ SVC_HOME: root, HOME: root }, 'scheduler', 'run');
    assert.match(plan.stdout, 'previous-run-ending');
    assert.match(plan.stdout, /handed the task on and may exit by itself until \S+ \(runExitGraceMs\)/);
    await untilDone(root, id);
    assert.not.ok(existsSync(`${root}/${id}.impl-after`));
    assert.match(await firstRunEnd(root, id), 'svc run ended: killed by SIGTERM');
    const answered = statSync(`${root}/${id}.impl-out`).mtimeMs;
    assert.ok(time(`${root}/${id}.rev-start`) - answered >= 2400, 'the reviewer waited for the grace period');
    await logShows(`${root}/data/logs/daemon.log`, /has not exited \(runExitGraceMs\)/);
  },
);

finish(
  'a run that blocked its task works on; unblocked at once, the task is dispatched again only after that run exited by itself',
  async () => {
    const root = tempRoot();
    const script = `
    const fs = require('node:fs');
    const { execFileSync } = require('node:child_process');
    const env = process.env;
    const base = env.SVC_HOME + '/' + env.SVC_TASK_ID + '.dev';
    const tool = (name, params) => execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, 'tool', name, JSON.stringify({ taskId: env.SVC_TASK_ID, sessionId: env.SVC_SESSION_ID, actor: env.SVC_AGENT, ...params })], { encoding: 'utf8' });
    if (fs.existsSync(base + '-out')) {
      fs.writeFileSync(base + '-again', String(Date.now()));
      tool('svc_task_complete', { summary: 'done' });
    } else {
      fs.writeFileSync(base + '-out', tool('svc_task_block', { reason: 'waits on the API key' }));
      setTimeout(() => { fs.writeFileSync(base + '-after', String(Date.now())); process.exit(0); }, 700);
    }`;
    writeOrg(root, {
      agents: [{ id: 'dev', name: 'Dev', command: [process.execPath, '-e', script] }],
      aof: { daemon: FAST },
    });
    await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
    const id = await createReady(root, { title: 'Blocks itself', agent: 'dev' });
    await within(20_000, () => existsSync(`${root}/${id}.dev-out`), 'the block');
    assert.is((JSON.parse(readFileSync(`${root}/${id}.dev-out`, 'utf8')) as { status: string }).status, 'blocked');
    await invoke(root, 'operator_task_unblock', { taskId: id });
    await untilDone(root, id);
    assert.match(await firstRunEnd(root, id), 'svc run ended: exit code 0');
    assert.ok(
      time(`${root}/${id}.dev-again`) >= time(`${root}/${id}.dev-after`),
      'the second run started after the first exited',
    );
  },
);

finish('the checks of a completion start once the completing run has exited', async () => {
  const root = tempRoot();
  const probe = [
    process.execPath,
    '-e',
    `require('fs').writeFileSync(${JSON.stringify(root)} + '/check-start', String(Date.now()))`,
  ];
  writeOrg(root, {
    agents: [{ id: 'impl', name: 'Impl', command: finishingAgent('impl', 700) }],
    aof: { daemon: FAST, checks: { probe: { run: probe, cwd: root } } },
  });
  await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], env: process.env });
  const id = await createReady(root, { title: 'Checked', agent: 'impl', verify: ['probe'] });
  await untilDone(root, id);
  assert.is(
    (JSON.parse(readFileSync(`${root}/${id}.impl-out`, 'utf8')) as { checking: string[] }).checking[0],
    'probe',
  );
  assert.match(await firstRunEnd(root, id), 'svc run ended: exit code 0');
  assert.ok(
    time(`${root}/check-start`) >= time(`${root}/${id}.impl-after`),
    'the check started after the implementer exited',
  );
});

finish.run();
