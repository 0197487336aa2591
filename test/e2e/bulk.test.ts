import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { initTree } from '../../lib/store/commit/store.js';
import { renderTask } from '../../lib/store/disk/task-file.js';
import { TOOLS } from '../../lib/tools/index.js';
import { writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, healthy, startChild, startTestDaemon } from '../helpers/daemon.js';
import { startFakeGateway } from '../helpers/fake-gateway.js';
import { cleanRoots, logShows, tempRoot, untilCount, within } from '../helpers/root.js';

const stops: (() => Promise<void>)[] = [];
const MANY = { maxConcurrentDispatches: 100_000, bootWindowMs: 200, pollIntervalMs: 1000, rescanIntervalMs: 1000 };
const agents = [{ id: 'gw', name: 'Gateway agent', maxConcurrent: 100_000 }];

/** A ready task file for agent gw (written directly, as git or a human would). */
function readyFile(id: string): string {
  const at = '2026-11-21T00:00:00.000Z';
  return renderTask(
    {
      schemaVersion: 1,
      id,
      project: 'bulk',
      title: `Bulk ${id}`,
      status: 'ready',
      priority: 'normal',
      routing: { agent: 'gw' },
      createdAt: at,
      updatedAt: at,
      lastTransitionAt: at,
      createdBy: 'git',
      dependsOn: [],
      metadata: {},
    },
    'From a branch.\n',
  );
}

function git(cwd: string, ...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.email=svc@example.invalid', '-c', 'user.name=svc tests', '-c', 'init.defaultBranch=main', ...args],
    { cwd, stdio: 'ignore' },
  );
}

const bulk = suite('e2e.bulk');
bulk.after.each(async () => {
  for (const stop of stops.splice(0)) await stop();
  await closeDaemons();
  cleanRoots();
});

bulk(
  '5,000 tasks arriving by `git checkout` are all dispatched, once each, and the log says the rescan found them',
  async () => {
    const root = tempRoot();
    const gateway = await startFakeGateway();
    stops.push(gateway.close);
    writeOrg(root, { agents, aof: { daemon: { ...MANY, gatewayUrl: gateway.url } } });
    const paths = toPaths(root);
    await initTree(paths);
    git(paths.tasks, 'init');
    git(paths.tasks, 'add', '-A');
    git(paths.tasks, 'commit', '-m', 'empty board');
    git(paths.tasks, 'checkout', '-b', 'bulk');
    for (let i = 1; i <= 5000; i++) {
      const id = `TASK-2026-11-20-${String(i).padStart(4, '0')}`;
      writeFileSync(paths.taskFile('ready', id), readyFile(id));
    }
    git(paths.tasks, 'add', '-A');
    git(paths.tasks, 'commit', '-m', '5000 tasks');
    git(paths.tasks, 'checkout', 'main');
    const daemon = await startTestDaemon(root, {
      tools: TOOLS,
      env: { SVC_GATEWAY_TOKEN: 't' },
      rescanIntervalMs: 1000,
    });
    await within(
      3000,
      async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'standalone',
      'standalone mode',
    );
    const started = Date.now();
    git(paths.tasks, 'checkout', 'bulk');
    await untilCount(5000, () => gateway.calls.length, 30_000, '5,000 spawns');
    const seconds = (Date.now() - started) / 1000;
    const labels = gateway.calls.map((c) => String(c.body.args?.label));
    assert.is(labels.length, 5000);
    assert.is(new Set(labels).size, 5000, 'no task spawned twice');
    await logShows(daemon.paths.daemonLog, /rescan found \d+ new or changed task files/);
    process.stdout.write(`  (5,000 tasks from git checkout dispatched in ${seconds.toFixed(1)} s)\n`);
  },
);

bulk(
  'two daemons sharing one tasks/ tree spawn each of 1,000 tasks exactly once (half moved in by hand, half by tool calls)',
  async () => {
    const one = tempRoot();
    const two = tempRoot();
    const gateway = await startFakeGateway();
    stops.push(gateway.close);
    const org = { agents, aof: { daemon: { ...MANY, gatewayUrl: gateway.url } } };
    writeOrg(one, org);
    writeOrg(two, org);
    await initTree(toPaths(one));
    symlinkSync(toPaths(one).tasks, toPaths(two).tasks);
    const children = [startChild(one), startChild(two)];
    stops.push(async () => void (await Promise.all(children.map((c) => c.kill()))));
    await Promise.all([healthy(one), healthy(two)]);
    await within(
      5000,
      async () => {
        const modes = await Promise.all(
          [one, two].map(async (root) => ((await call(root, 'GET', '/status')).body as { mode: string }).mode),
        );
        return modes.every((mode) => mode === 'standalone');
      },
      'both standalone',
    );
    const staging = `${one}/staging`;
    mkdirSync(staging);
    const ids: string[] = [];
    for (let i = 1; i <= 500; i++) {
      const id = `TASK-2026-11-19-${String(i).padStart(4, '0')}`;
      writeFileSync(`${staging}/${id}.md`, readyFile(id));
      ids.push(id);
    }
    const moves = ids.map((id) => rename(`${staging}/${id}.md`, toPaths(one).taskFile('ready', id)));
    const dispatches = Array.from({ length: 500 }, (_, i) =>
      call(i % 2 ? one : two, 'POST', '/v1/tool/invoke', {
        tool: 'svc_dispatch',
        params: { title: `Tool ${i}`, brief: 'x', agent: 'gw' },
      }),
    );
    await Promise.all([...moves, ...dispatches]);
    await untilCount(1000, () => gateway.calls.length, 30_000, '1,000 spawns');
    // Every spawn follows a lease (a task.dispatched); once 1,000 leases are logged and every task
    // is in progress under its live lease, no further spawn can come: a duplicate would show now.
    const leases = async () =>
      (await Promise.all([one, two].map((root) => readEvents(root, { type: 'task.dispatched' })))).flat(); // each daemon logs under its own data/
    await untilCount(1000, async () => (await leases()).length, 30_000, '1,000 task.dispatched events');
    await untilCount(
      1000,
      () => readdirSync(toPaths(one).statusDir('in-progress')).filter((name) => name.endsWith('.md')).length,
      30_000,
      '1,000 tasks in progress',
    );
    const dispatched = await leases();
    assert.is(dispatched.length, 1000, 'one lease per task');
    assert.is(new Set(dispatched.map((e) => e.taskId)).size, 1000);
    const labels = gateway.calls.map((c) => String(c.body.args?.label));
    assert.is(labels.length, 1000, 'exactly 1,000 spawns');
    assert.is(new Set(labels).size, 1000, 'no task spawned twice');
  },
);

bulk.run();
