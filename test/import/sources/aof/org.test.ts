import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseYaml } from '../../../../lib/fs/frontmatter.js';
import { readEvents } from '../../../../lib/store/events/log.js';
import { TOOLS } from '../../../../lib/tools/index.js';
import { completingAgent, writeOrg } from '../../../helpers/agents.js';
import { svc } from '../../../helpers/cli.js';
import { closeDaemons, startTestDaemon } from '../../../helpers/daemon.js';
import { copyFixture, importJson, readTasks } from '../../../helpers/import.js';
import { cleanRoots, tempRoot, within } from '../../../helpers/root.js';

const org = suite('import.aof.org');
org.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

interface OrgReport {
  org: {
    changes: { kind: string; id: string; action: string }[];
    ignored: string[];
    written: boolean;
    problem?: string;
  };
}

/** svc's own org chart before the import: a local agent `swe-1`, a role of its own, daemon settings. */
function writeSvcOrg(root: string, command = completingAgent('imported from AOF and done')): void {
  writeOrg(root, {
    agents: [{ id: 'swe-1', name: 'Local engineer', command }],
    roles: { swe: { agents: ['swe-1'], description: 'svc own' } },
    aof: { daemon: { bootWindowMs: 200, pollIntervalMs: 200 } },
  });
}

org(
  "the org chart merge is previewed by a dry run (nothing written) and applied by the import: svc's entries and aof settings kept",
  async () => {
    const root = tempRoot();
    writeSvcOrg(root);
    const file = join(root, 'org/org-chart.yaml');
    const before = readFileSync(file, 'utf8');
    const dir = copyFixture('aof');
    const dry = await svc(root, 'import', 'aof', dir, '--dry-run');
    assert.is(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /Org chart .*org-chart\.yaml would merge into .*org\/org-chart\.yaml\n/);
    assert.match(dry.stdout, /^ {2}add  agent qa-1$/m);
    assert.match(dry.stdout, /^ {2}keep agent swe-1 \(svc has it\)$/m);
    assert.match(dry.stdout, /^ {2}keep role swe \(svc has it\)$/m);
    assert.match(dry.stdout, /^ {2}add  memoryPools memoryPools$/m);
    assert.match(
      dry.stdout,
      /not merged \(svc has no such setting\): template, orgUnits, groups, memberships, relationships, routing, metadata/,
    );
    assert.is(readFileSync(file, 'utf8'), before, 'a dry run writes no org chart');

    const { report } = (await importJson(root, 'aof', dir)) as unknown as { report: OrgReport };
    assert.is(report.org.written, true);
    const chart = parseYaml(readFileSync(file, 'utf8'), file) as Record<string, any>;
    assert.equal(
      chart.agents.map((agent: { id: string }) => agent.id),
      ['swe-1', 'main', 'qa-1', 'lead-1'],
    );
    assert.equal(
      chart.agents[0].command,
      completingAgent('imported from AOF and done'),
      "svc's own agent is kept as it was",
    );
    const qa = chart.agents.find((agent: { id: string }) => agent.id === 'qa-1');
    assert.equal(qa, {
      id: 'qa-1',
      name: 'QA',
      active: true,
      capabilities: ['testing'],
      team: 'platform',
      maxConcurrent: 1,
      metadata: { aof: { canDelegate: false, comms: { preferred: 'send', fallbacks: ['send', 'cli'] } } },
    });
    assert.equal(chart.teams.find((team: { id: string }) => team.id === 'platform').members, [
      'swe-1',
      'qa-1',
      'lead-1',
    ]);
    assert.equal(chart.roles.swe, { agents: ['swe-1'], description: 'svc own' });
    assert.equal(chart.roles.reviewer, { agents: ['lead-1'], description: 'Reviews code' });
    assert.equal(chart.memoryPools.cold, { path: 'Logs', more: ['Approvals'] });
    assert.equal(chart.aof.daemon, { bootWindowMs: 200, pollIntervalMs: 200 });
    assert.is(readFileSync(join(root, 'data/imports/org-chart.before-aof.yaml'), 'utf8'), before);
    const validate = await svc(root, 'org', 'validate');
    assert.is(validate.code, 0, validate.stdout + validate.stderr);
    const again = (await importJson(root, 'aof', dir)) as unknown as { report: OrgReport };
    assert.is(again.report.org.written, false);
    assert.ok(again.report.org.changes.every((change) => change.action === 'keep'));
  },
);

org('a merge that would not be valid writes no org chart, is reported, and the tasks still go in', async () => {
  const root = tempRoot();
  const dir = copyFixture('aof');
  const chartFile = join(dir, 'org/org-chart.yaml');
  writeFileSync(chartFile, readFileSync(chartFile, 'utf8').replace('id: qa-1', 'id: qa/1'));
  const { code, report } = await importJson(root, 'aof', dir);
  assert.is(code, 1);
  assert.match((report as unknown as OrgReport).org.problem!, /agents\[2\]\.id/);
  assert.not.ok(existsSync(join(root, 'org/org-chart.yaml')));
  assert.is(report.summary.create, 11);
});

org('an imported AOF task is dispatched and completed by the daemon through a local command agent', async () => {
  const root = tempRoot();
  writeSvcOrg(root);
  await importJson(root, 'aof', copyFixture('aof'));
  // The task AOF had leased to swe-1 comes in ready, routed to swe-1: svc's local command agent of that id.
  assert.is(readTasks(root)['TASK-2026-11-26-003']!.status, 'ready');
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  await within(20_000, () => readTasks(root)['TASK-2026-11-26-003']?.status === 'done', 'the imported task to be done');
  await within(
    15_000,
    async () =>
      (await readEvents(root, { taskId: 'TASK-2026-11-26-003' })).some((event) => event.type === 'task.completed'),
    'its task.completed event',
  );
  const types = (await readEvents(root, { taskId: 'TASK-2026-11-26-003' })).map((event) => event.type);
  assert.ok(types.includes('task.imported') && types.includes('task.dispatched'), types.join(' '));
  assert.is(readTasks(root)['TASK-2026-11-26-002']!.status, 'ready', 'its dependent waits for the backlog task');
});

org(
  "an AOF task in review at a gate svc's workflow has is dispatched to that gate's role and completes the workflow",
  async () => {
    const root = tempRoot();
    writeOrg(root, {
      agents: [
        {
          id: 'rev',
          name: 'Local reviewer',
          command: completingAgent('reviewed after the move', { outcome: 'complete' }),
        },
      ],
      roles: { reviewer: { agents: ['rev'] } },
      aof: { daemon: { bootWindowMs: 200, pollIntervalMs: 200 } },
    });
    mkdirSync(join(root, 'org/workflows'), { recursive: true });
    writeFileSync(
      join(root, 'org/workflows/standard-sdlc.yaml'),
      'workflow:\n  name: standard-sdlc\n  gates:\n    - id: implement\n      role: swe\n    - id: code-review\n      role: reviewer\n',
    );
    const { report } = await importJson(root, 'aof', copyFixture('aof'));
    const id = report.items.find((item) => item.sourceId === 'web-app/TASK-2026-11-26-002')!.id!;
    assert.match(readTasks(root)[id]!.text, /gate:\n  workflow: standard-sdlc\n  current: code-review\n/);
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    await within(20_000, () => readTasks(root)[id]?.status === 'done', 'the gated task to be done');
    await within(
      15_000,
      async () => (await readEvents(root, { taskId: id })).some((event) => event.type === 'task.completed'),
      'its task.completed event',
    );
    const dispatched = (await readEvents(root, { taskId: id })).find((event) => event.type === 'task.dispatched');
    assert.is(dispatched?.payload.agent, 'rev');
  },
);

org.run();
