import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../../lib/store/commit/store.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { call, closeDaemons, runSvc, startTestDaemon } from '../../helpers/daemon.js';
import { svc } from '../../helpers/cli.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

const BROKEN =
  'schemaVersion: 1\nagents:\n  - { name: Developer, command: [node, agent.js] }\n  - { id: lead, name: Lead, maxConcurrent: many }\n';
const VALID = 'schemaVersion: 1\nagents:\n  - { id: dev, name: Developer }\n';

function writeChart(root: string, text: string): void {
  mkdirSync(`${root}/org`, { recursive: true });
  writeFileSync(`${root}/org/org-chart.yaml`, text);
}

const config = suite('daemon.org chart state');
config.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

config(
  'a malformed org chart at start is reported by daemon status and /status, and ready tasks are held naming the org chart',
  async () => {
    const root = tempRoot();
    writeChart(root, BROKEN);
    const { task } = await createStore({ root }).create({
      title: 'Routed',
      status: 'ready',
      routing: { agent: 'dev' },
      createdBy: 'test',
    });
    const daemon = await startTestDaemon(root, { tools: TOOLS });
    const out = await runSvc({ SVC_HOME: root }, 'daemon', 'status');
    assert.is(out.code, 0, out.stderr);
    assert.match(
      out.stdout,
      /\nConfig: org\/org-chart\.yaml INVALID since \S+ \(2 problems; no chart loaded: ready tasks are held\):\n  agents\[0\]\.id: required/,
    );
    assert.match(out.stdout, /\n  agents\[1\]\.maxConcurrent: /);
    const status = (await call(root, 'GET', '/status')).body as { config: Record<string, unknown> };
    assert.equal([status.config.orgChart, status.config.using, status.config.problemCount], ['invalid', 'none', 2]);
    const plan = (await call(root, 'GET', '/v1/scheduler/plan')).body as {
      actions: { taskId: string; kind: string; reason: string; detail: string }[];
    };
    const hold = plan.actions.find((a) => a.taskId === task.id)!;
    assert.equal([hold.kind, hold.reason], ['hold', 'org-chart']);
    assert.match(hold.detail, /org chart org\/org-chart\.yaml is invalid \(2 problems: agents\[0\]\.id: required/);
    assert.not.match(hold.detail, /gatewayUrl/);
    const log = await within(
      5000,
      () => {
        const text = readFileSync(daemon.paths.daemonLog, 'utf8');
        return text.includes('no valid chart is loaded') && text;
      },
      'the log line of the invalid chart',
    );
    assert.not.match(log, /previous/);
  },
);

config('a reload reports the fix, then a new break keeps the chart loaded before', async () => {
  const root = tempRoot();
  writeChart(root, BROKEN);
  const daemon = await startTestDaemon(root, { tools: TOOLS });
  writeChart(root, VALID);
  const fixed = await runSvc({ SVC_HOME: root }, 'daemon', 'status');
  assert.match(fixed.stdout, /\nConfig: org\/org-chart\.yaml ok \(1 agents\)\n/);
  writeChart(root, `${VALID}  - { id: 7 }\n`);
  const broken = await runSvc({ SVC_HOME: root }, 'daemon', 'status', '--json');
  const body = JSON.parse(broken.stdout) as { config: Record<string, unknown> };
  assert.equal([body.config.orgChart, body.config.using, body.config.agents], ['invalid', 'previous', 1]);
  const text = await runSvc({ SVC_HOME: root }, 'daemon', 'status');
  assert.match(text.stdout, /INVALID since \S+ \(\d+ problems?; still using the chart loaded before\)/);
  const log = readFileSync(daemon.paths.daemonLog, 'utf8');
  assert.match(log, /org chart org\/org-chart\.yaml is valid again: 1 agents/);
  assert.match(log, /is invalid, still using the chart loaded before/);
});

const doctor = suite('cli.doctor config');
doctor.after.each(cleanRoots);

doctor('reports a malformed org chart and workflow with every problem, and exits 1', async () => {
  const root = tempRoot();
  await createStore({ root }).init();
  writeChart(root, BROKEN);
  mkdirSync(`${root}/org/workflows`, { recursive: true });
  writeFileSync(`${root}/org/workflows/ship.yaml`, 'workflow:\n  name: ship\n  gates: []\n');
  const out = await svc(root, 'doctor');
  assert.is(out.code, 1);
  assert.match(out.stdout, /^invalid org chart: org\/org-chart\.yaml \(2 problems\)\n  agents\[0\]\.id: required/);
  assert.match(out.stdout, /\ninvalid workflow: org\/workflows\/ship\.yaml \(1 problem\)\n  /);
  assert.match(out.stdout, /\ntasks tree: no problems\n/);
  const json = JSON.parse((await svc(root, 'doctor', '--json')).stdout) as { ok: boolean; config: { file: string }[] };
  assert.equal([json.ok, json.config.map((c) => c.file)], [false, ['org/org-chart.yaml', 'org/workflows/ship.yaml']]);
  writeChart(root, `${VALID}roles:\n  builder: { agents: [dev] }\n`);
  writeFileSync(
    `${root}/org/workflows/ship.yaml`,
    'workflow:\n  name: ship\n  gates:\n    - { id: build, role: builder }\n',
  );
  const clean = await svc(root, 'doctor');
  assert.equal([clean.code, clean.stdout], [0, 'ok: no problems\n']);
});

config.run();
doctor.run();
