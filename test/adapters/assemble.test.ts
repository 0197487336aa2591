import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAdapterSet } from '../../lib/adapters/assemble.js';
import type { Run } from '../../lib/adapters/runs.js';
import type { SpawnRequest } from '../../lib/core/spawn.js';
import { loadOrg, toDaemonSettings } from '../../lib/org/org-chart.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { SVC_BIN, writeOrg } from '../helpers/agents.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const TASK = 'TASK-2026-11-28-001';

/** A set of a root whose agent `dev` writes how it was told to call svc, and the request of one run. */
function setUp(root: string) {
  const script = `require('node:fs').writeFileSync(process.env.SVC_TASK_ID + '.env', JSON.stringify({ bin: process.env.SVC_BIN, node: process.env.SVC_NODE }))`;
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: [process.execPath, '-e', script] }] });
  const request: SpawnRequest = {
    id: 's1',
    taskId: TASK,
    agent: 'dev',
    sessionId: 's1',
    prompt: 'Do it.',
    task: { title: 'Set', priority: 'normal', routing: { agent: 'dev' }, body: '' },
  };
  const settings = async () => toDaemonSettings(await loadOrg(root));
  return { request, settings };
}

const set = suite('adapters.createAdapterSet');
set.after.each(cleanRoots);

set(
  'the command agent is told how to call svc back, and its run is not recorded for a later daemon without `daemon`',
  async () => {
    const root = tempRoot();
    const { request, settings } = setUp(root);
    const current = await settings();
    const adapters = createAdapterSet({
      paths: toPaths(root),
      loadOrg: () => loadOrg(root),
      env: process.env,
      settings: () => current,
      spawnTimeoutMs: 1000,
      token: () => undefined,
    });
    try {
      const run = await adapters.command.spawn(request);
      assert.is((await run.ended!).ok, true);
    } finally {
      adapters.command.close();
    }
    const scratch = `${root}/data/scratch/${TASK}/s1`;
    assert.equal(JSON.parse(readFileSync(`${scratch}/${TASK}.env`, 'utf8')), { bin: SVC_BIN, node: process.execPath });
    assert.not.ok(existsSync(`${root}/data/runs`) && readdirSync(`${root}/data/runs`).length > 0);
    assert.is(adapters.standalone.kind, 'standalone');
  },
);

set('with `daemon`, a run is recorded while it runs and reported gone when its process group is empty', async () => {
  const root = tempRoot();
  const { request, settings } = setUp(root);
  const current = await settings();
  const gone: Run[] = [];
  let told: () => void = () => undefined;
  const reported = new Promise<void>((resolve) => (told = resolve));
  const adapters = createAdapterSet({
    paths: toPaths(root),
    loadOrg: () => loadOrg(root),
    env: process.env,
    settings: () => current,
    spawnTimeoutMs: 1000,
    token: () => undefined,
    daemon: {
      onGone: (run) => {
        gone.push(run);
        told();
      },
    },
  });
  // The daemon's agents do not keep its process alive (`unref`): this test does, until the report.
  const alive = setInterval(() => undefined, 1000);
  try {
    await adapters.command.spawn(request);
    assert.ok(
      readdirSync(`${root}/data/runs`).some((name) => name.startsWith(TASK)),
      'the run is recorded under data/runs/',
    );
    await reported;
  } finally {
    clearInterval(alive);
    adapters.command.close();
  }
  assert.equal(
    gone.map((run) => run.taskId),
    [TASK],
  );
});

set.run();
