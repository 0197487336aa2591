import { writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { renderTask } from '../../../lib/store/disk/task-file.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { svc } from '../../helpers/cli.js';
import { closeDaemons, startTestDaemon, writeTaskFiles } from '../../helpers/daemon.js';
import { parsePrometheus, valueOf } from '../../helpers/prometheus.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const metrics = suite('cli.daemonMetrics');
metrics.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

metrics("prints the Prometheus text of the daemon, which parses, with the tree's counts", async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 3, (i) => (i === 1 ? 'done' : 'backlog'));
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const out = await svc(root, 'daemon', 'metrics');
  assert.is(out.code, 0, out.stderr);
  const scrape = parsePrometheus(out.stdout);
  assert.is(valueOf(scrape, 'svc_tasks', { status: 'backlog' }), 2);
  assert.is(valueOf(scrape, 'svc_tasks', { status: 'done' }), 1);
});

metrics('--json prints one object per metric family', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 2, () => 'ready');
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const out = await svc(root, 'daemon', 'metrics', '--json');
  assert.is(out.code, 0, out.stderr);
  const families = JSON.parse(out.stdout) as {
    name: string;
    type: string;
    values: { labels: Record<string, string>; value: number }[];
  }[];
  const tasks = families.find((family) => family.name === 'svc_tasks');
  assert.is(tasks?.type, 'gauge');
  assert.is(tasks?.values.find((v) => v.labels.status === 'ready')?.value, 2);
});

metrics('an agent name with control characters reaches the terminal escaped', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const stamp = '2026-01-01T00:00:00.000Z';
  const id = 'TASK-2026-01-01-009';
  writeFileSync(
    toPaths(root).taskFile('in-progress', id),
    renderTask(
      {
        schemaVersion: 1,
        id,
        project: 'test',
        title: 'Odd',
        status: 'in-progress',
        priority: 'normal',
        routing: { agent: 'dev\u001b[31mred' },
        createdAt: stamp,
        updatedAt: stamp,
        lastTransitionAt: stamp,
        createdBy: 'test',
        dependsOn: [],
        metadata: {},
      },
      'Body\n',
    ),
  );
  await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const out = await svc(root, 'daemon', 'metrics');
  assert.is(out.code, 0, out.stderr);
  assert.not.match(out.stdout, /\u001b/);
  assert.match(out.stdout, /svc_in_progress_tasks\{agent="dev.*red"\} 1/);
});

metrics('without a daemon it says so and how to start one (exit 1)', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const out = await svc(root, 'daemon', 'metrics');
  assert.is(out.code, 1);
  assert.match(out.stderr, /not running/);
  assert.match(out.stderr, /svc daemon start/);
});

metrics.run();
