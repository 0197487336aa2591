import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Usage } from '../../lib/core/usage.js';
import { recordRunUsage } from '../../lib/store/changes/usage.js';
import { createStore } from '../../lib/store/commit/store.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, fixedClock, tempRoot } from '../helpers/root.js';

const ORG = `schemaVersion: 1
agents:
  - { id: coder, name: Coder, team: build }
  - { id: reviewer, name: Reviewer }
  - { id: helper, name: Helper }
teams:
  - { id: build, name: Build }
  - { id: qa, name: QA, members: [reviewer] }
`;

const tokens = (input: number, costUsd: number | null): Usage => ({
  inputTokens: input,
  outputTokens: input / 10,
  cacheReadTokens: input * 2,
  cacheWriteTokens: 0,
  costUsd,
});

/** A root with four runs over two tasks and three days, recorded as the daemon records them. */
async function seed() {
  const root = tempRoot();
  const clock = fixedClock('2026-11-20T09:00:00Z');
  const store = createStore({ root, clock });
  const a = (await store.create({ title: 'A', createdBy: 'test' })).task.id;
  const b = (await store.create({ title: 'B', createdBy: 'test' })).task.id;
  const run = (taskId: string, n: number, agent: string, model: string | null, usage: Usage) =>
    recordRunUsage(store, { taskId, run: `s-${n}`, agent, runtime: 'claude-code', model, cliSession: null, usage });
  await run(a, 1, 'coder', 'sonnet', tokens(1000, 0.5));
  clock.set('2026-11-27T09:00:00Z');
  await run(a, 2, 'reviewer', 'gpt', tokens(2000, 0.25));
  await run(b, 3, 'coder', 'sonnet', tokens(3000, 1.5));
  clock.set('2026-11-28T09:00:00Z');
  await run(b, 4, 'helper', null, tokens(500, null));
  return { root, a, b };
}

function writeOrg(root: string): void {
  mkdirSync(join(root, 'org'), { recursive: true });
  writeFileSync(join(root, 'org', 'org-chart.yaml'), ORG);
}

const usage = suite('cli.usage');
usage.after.each(cleanRoots);

usage('sums the runs by agent, the costliest first, with a total; an unknown cost is never $0', async () => {
  const { root } = await seed();
  const out = await svc(root, 'usage');
  assert.is(out.code, 0, out.stderr);
  assert.equal(out.stdout.trimEnd().split('\n'), [
    'AGENT     RUNS  INPUT  OUTPUT  CACHE READ  CACHE WRITE     COST',
    'coder        2  4,000     400       8,000            0    $2.00',
    'reviewer     1  2,000     200       4,000            0    $0.25',
    'helper       1    500      50       1,000            0  unknown',
    'total        4  6,500     650      13,000            0  ≥ $2.25',
  ]);
});

usage('--json gives the rows and the total: costUsd null once a run is unpriced, the known part apart', async () => {
  const { root } = await seed();
  const json = JSON.parse((await svc(root, 'usage', '--json')).stdout);
  assert.is(json.by, 'agent');
  assert.is(json.since, null);
  assert.equal(json.rows[0], {
    key: 'coder',
    inputTokens: 4000,
    outputTokens: 400,
    cacheReadTokens: 8000,
    cacheWriteTokens: 0,
    costUsd: 2,
    runs: 2,
    knownCostUsd: 2,
    unpricedRuns: 0,
  });
  assert.equal(
    { costUsd: json.total.costUsd, knownCostUsd: json.total.knownCostUsd, unpricedRuns: json.total.unpricedRuns },
    { costUsd: null, knownCostUsd: 2.25, unpricedRuns: 1 },
  );
});

usage('--by model, task and team; a team from the agent, else from the members that name it', async () => {
  const { root, a, b } = await seed();
  writeOrg(root);
  const keys = async (by: string) =>
    JSON.parse((await svc(root, 'usage', '--by', by, '--json')).stdout).rows.map(
      (row: { key: string; runs: number }) => [row.key, row.runs],
    );
  assert.equal(await keys('model'), [
    ['sonnet', 2],
    ['gpt', 1],
    ['(no model)', 1],
  ]);
  assert.equal(await keys('task'), [
    [b, 2],
    [a, 2],
  ]);
  assert.equal(await keys('team'), [
    ['build', 2],
    ['qa', 1],
    ['(no team)', 1],
  ]);
});

usage('--since keeps the runs at or after a time or a duration back from now', async () => {
  const { root } = await seed();
  const json = JSON.parse((await svc(root, 'usage', '--since', '2026-11-27T09:00:00Z', '--json')).stdout);
  assert.is(json.since, '2026-11-27T09:00:00.000Z');
  assert.is(json.total.runs, 3);
  assert.is(JSON.parse((await svc(root, 'usage', '--since', '1h', '--json')).stdout).total.runs, 0);
});

usage('a root without runs says so', async () => {
  const root = tempRoot();
  await svc(root, 'task', 'create', 'Nothing');
  assert.is((await svc(root, 'usage')).stdout, '(no runs recorded usage)\n');
});

usage('an unknown --by or --since is a usage error with a hint, exit 2', async () => {
  const { root } = await seed();
  const by = await svc(root, 'usage', '--by', 'agnet');
  assert.is(by.code, 2);
  assert.match(by.stderr, '--by must be one of agent, team, model, task (found "agnet"). Did you mean "agent"?');
  const since = await svc(root, 'usage', '--since', 'last week');
  assert.is(since.code, 2);
  assert.match(since.stderr, '--since must be a duration back from now or a date');
});

usage.run();
