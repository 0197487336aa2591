// Notifications with two daemons on one tree (two GlusterFS mounts of one tasks/, each host its own data/): each
// notification arrives once. A task's completion is recorded in the log of the daemon its agent called, an SLA
// violation by the daemon holding the SLA duty: each event is in one host's log, notified by that host alone.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cursorFile } from '../../lib/daemon/notify/cursor.js';
import { initTree } from '../../lib/store/commit/store.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { sleepingAgent } from '../helpers/agents.js';
import { call } from '../helpers/daemon.js';
import { glusterMissing, startGlusterVolume, type GlusterVolume } from '../helpers/gluster.js';
import { startReceiver, type HttpReceiver } from '../helpers/http-receiver.js';
import { cleanRoots, within } from '../helpers/root.js';
import { fuseAbsent } from '../helpers/sshfs.js';
import { withTwoHosts, type Host } from '../helpers/two-daemons.js';
import { untilDone } from '../helpers/two-daemons-checks.js';
import { dispatchBurst } from '../helpers/two-daemons-load.js';
import { bodyOf, outbox, subscription } from './notify-setup.js';

const TASKS = 20;

const absent = fuseAbsent();
if (absent) {
  process.stderr.write(
    `\n${'!'.repeat(100)}\n!!! SKIPPED e2e.notify-gluster (notifications of two daemons on GlusterFS): ${absent}.\n!!! These tests need FUSE; they ran NOT AT ALL on this machine.\n${'!'.repeat(100)}\n\n`,
  );
}

const flow = suite('e2e.notify-gluster');
let volume: GlusterVolume | undefined;
let receiver: HttpReceiver;
flow.before(async () => {
  receiver = await startReceiver();
  if (absent) return;
  const missing = await glusterMissing();
  if (missing) throw new Error(missing);
  volume = await startGlusterVolume();
});
flow.after(async () => {
  await volume?.stop();
  await receiver.close();
});
flow.after.each(cleanRoots);

/** The daemon of `host` has read its whole event log and delivered what it made. */
async function caughtUp(host: Host): Promise<boolean> {
  const paths = toPaths(host.home);
  const cursor = JSON.parse(readFileSync(cursorFile(paths), 'utf8')) as { days: Record<string, number> };
  const days = readdirSync(paths.events).filter((name) => name.endsWith('.jsonl'));
  const read = days.every((name) => (cursor.days[name.slice(0, 10)] ?? -1) >= statSync(join(paths.events, name)).size);
  return read && (await outbox(host.home)).length === 0;
}

(absent ? flow.skip : flow)(
  'two daemons on one tree: every completion and the SLA violation is notified once, by the daemon that recorded it',
  async () => {
    const vol = volume!;
    const tree = `notify-${Date.now()}`;
    await initTree(toPaths(`${vol.admin}/${tree}`));
    const tasks = toPaths(`${vol.admin}/${tree}`).tasks;
    const org = () => ({
      agents: [{ id: 'slow', name: 'slow', maxConcurrent: 10, command: sleepingAgent(120_000) }],
      aof: {
        projects: { default: { sla: { defaultMaxInProgressMs: 500, alerting: { rateLimitMinutes: 60 } } } },
        notify: [subscription({ id: 'ops', webhook: receiver.url, events: ['task.completed', 'sla.violation'] })],
      },
    });
    await withTwoHosts(
      {
        mount: (home) => vol.mount(toPaths(home).tasks, { subdir: `${tree}/tasks` }),
        daemon: { pollIntervalMs: 500 },
        org,
      },
      async (hosts) => {
        const slow = await call(hosts[0]!.home, 'POST', '/v1/tool/invoke', {
          tool: 'svc_dispatch',
          params: { title: 'Runs past its SLA', brief: 'Sleeps.', agent: 'slow' },
        });
        assert.is(slow.status, 200, JSON.stringify(slow.body));
        const slowId = (slow.body as { result: { taskId: string } }).result.taskId;
        const ids = await dispatchBurst(hosts, TASKS, 'Notified');
        await untilDone(tasks, ids, hosts);
        const bodies = () => receiver.requests.map(bodyOf);
        await within(
          60_000,
          () => bodies().some((b) => b.event.type === 'sla.violation'),
          'the SLA violation notified',
        );
        await within(60_000, async () => (await caughtUp(hosts[0]!)) && (await caughtUp(hosts[1]!)), 'both caught up');
        const completed = bodies().filter((b) => b.event.type === 'task.completed');
        assert.equal(
          completed.map((b) => b.task?.id ?? b.event.taskId).sort(),
          [...ids].sort(),
          'each completion once',
        );
        assert.equal(
          bodies()
            .filter((b) => b.event.type === 'sla.violation')
            .map((b) => b.event.taskId),
          [slowId],
          'one SLA notification, by the daemon holding the SLA duty',
        );
        for (const host of hosts) {
          const metrics = (await call(host.home, 'GET', '/metrics')).body as string;
          const delivered = /svc_notify_deliveries_total\{subscription="ops",outcome="delivered"\} (\d+)/.exec(metrics);
          assert.ok(Number(delivered?.[1] ?? 0) > 0, `host ${host.name} notified what it recorded`);
        }
        const deliveries = receiver.requests.map((r) => r.headers['x-svc-delivery']);
        assert.is(new Set(deliveries).size, deliveries.length, 'no delivery twice');
      },
    );
  },
);

flow.run();
