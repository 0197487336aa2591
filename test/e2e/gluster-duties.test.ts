// One owner for team-wide duties: two daemons on two GlusterFS mounts of one tree, one team with
// murmur and an SLA on the project, a task with a `dueAt`. Each duty (the team's murmur, the SLA
// alerts, the OVERDUE alerts) runs on one daemon at a time, through its file in tasks/.duties/: one
// review per trigger, one SLA alert per rate window and one OVERDUE alert per task between them; when the owner is SIGKILLed the other daemon takes its duties over within a
// minute (here `dutyTtlMs` is short) and goes on from the state the owner saved.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { claimDuty, readDuty } from '../../lib/store/records/duty-lease.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { initTree } from '../../lib/store/commit/store.js';
import { sleepingAgent } from '../helpers/agents.js';
import { call } from '../helpers/daemon.js';
import { glusterMissing, startGlusterVolume, type GlusterVolume } from '../helpers/gluster.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { fuseAbsent } from '../helpers/sshfs.js';
import { COMPLETING_AGENT, withTwoHosts } from '../helpers/two-daemons.js';
import { untilDone } from '../helpers/two-daemons-checks.js';
import { dispatchBurst } from '../helpers/two-daemons-load.js';
import { alerts, created, dutyLines, overdue, ownerOf } from './gluster-duties-setup.js';

const DUTY_TTL_MS = 6000;
const WINDOW_MS = 20_000; // the SLA alerts' rate window
const THRESHOLD = 4; // completions per murmur review

const absent = fuseAbsent();
if (absent) {
  process.stderr.write(
    `\n${'!'.repeat(100)}\n!!! SKIPPED e2e.gluster-duties (team-wide duties of two daemons on GlusterFS): ${absent}.\n!!! These tests need FUSE; they ran NOT AT ALL on this machine.\n${'!'.repeat(100)}\n\n`,
  );
}

const duties = suite('e2e.gluster-duties');
let volume: GlusterVolume | undefined;
duties.before(async () => {
  if (absent) return;
  const missing = await glusterMissing();
  if (missing) throw new Error(missing);
  volume = await startGlusterVolume();
});
duties.after(async () => void (await volume?.stop()));
duties.after.each(cleanRoots);

(absent ? duties.skip : duties)(
  'murmur of a team, SLA and OVERDUE alerts run on one of two daemons at a time: one review per trigger, one SLA alert per window, one OVERDUE alert per task, taken over within a minute when the owner is SIGKILLed',
  async () => {
    const vol = volume!;
    const tree = `duties-${Date.now()}`;
    await initTree(toPaths(`${vol.admin}/${tree}`));
    const tasks = toPaths(`${vol.admin}/${tree}`).tasks;
    const org = (name: string, home: string) => ({
      agents: [
        {
          id: 'lead',
          name: 'lead',
          maxConcurrent: 10,
          command: [process.execPath, '-e', COMPLETING_AGENT],
          env: { RESULTS: `${home}/results.jsonl`, HOST_LABEL: name },
        },
        { id: 'slow', name: 'slow', maxConcurrent: 10, command: sleepingAgent(180_000) },
      ],
      teams: [
        {
          id: 'core',
          name: 'Core',
          members: ['worker'],
          orchestrator: 'lead',
          murmur: { triggers: [{ kind: 'completionBatch', threshold: THRESHOLD }] },
        },
      ],
      aof: {
        projects: {
          default: { sla: { defaultMaxInProgressMs: 500, alerting: { rateLimitMinutes: WINDOW_MS / 60_000 } } },
        },
      },
    });
    const daemon = { dutyTtlMs: DUTY_TTL_MS, pollIntervalMs: 1000 };
    await withTwoHosts(
      { mount: (home) => vol.mount(toPaths(home).tasks, { subdir: `${tree}/tasks` }), daemon, org },
      async (hosts) => {
        const dueAt = new Date(Date.now() + 3000).toISOString();
        const slow = await call(hosts[0]!.home, 'POST', '/v1/tool/invoke', {
          tool: 'svc_dispatch',
          params: { title: 'Runs past its SLA and its due time', brief: 'Sleeps.', agent: 'slow', dueAt },
        });
        assert.is(slow.status, 200, JSON.stringify(slow.body));
        const slowId = (slow.body as { result: { taskId: string } }).result.taskId;
        const first = await dispatchBurst(hosts, THRESHOLD, 'First');
        await untilDone(tasks, first, hosts);
        const review = await within(60_000, () => created(hosts)[0], 'a murmur review').catch((err: Error) =>
          Promise.reject(new Error(`${err.message}\n${dutyLines(hosts)}`)),
        );
        const owner = hosts.find((host) => host.name === review.host)!;
        await within(60_000, () => alerts(hosts, slowId).length > 0, 'an SLA alert for the slow task');
        await within(60_000, () => overdue(hosts, slowId).length > 0, 'an OVERDUE alert for the task');
        await new Promise((resolve) => setTimeout(resolve, 3 * DUTY_TTL_MS)); // both daemons poll many times meanwhile
        assert.equal(
          created(hosts).map((event) => event.host),
          [owner.name],
          'one review for the first batch, by one daemon',
        );
        const [firstAlert, ...later] = alerts(hosts, slowId).map((event) => Date.parse(event.timestamp));
        assert.equal(
          later.filter((at) => at - firstAlert! < WINDOW_MS - 1000),
          [],
          'one SLA alert in the first window',
        );
        assert.equal(overdue(hosts, slowId).length, 1, 'one OVERDUE alert for the task, by one daemon');

        const survivor = hosts.find((host) => host !== owner)!;
        const self = `${hostname()} ${survivor.daemon!.child.pid}`;
        await owner.daemon!.kill();
        const killedAt = Date.now();
        await within(
          60_000,
          () => ['murmur.core', 'sla', 'overdue'].every((duty) => ownerOf(tasks, duty) === self),
          `${survivor.name} holding every duty`,
        );
        const takeoverMs = Date.now() - killedAt;
        const second = await dispatchBurst([survivor], THRESHOLD, 'Second');
        await untilDone(tasks, second, [survivor]);
        await within(60_000, () => created(hosts).length === 2, 'a second murmur review');
        await within(
          WINDOW_MS * 2,
          () => alerts(hosts, slowId).some((event) => Date.parse(event.timestamp) > killedAt),
          'an SLA alert by the daemon that took over',
        );
        const reviews = created(hosts);
        assert.equal(
          reviews.map((event) => event.host),
          [owner.name, survivor.name],
          'the second review by the daemon that took over',
        );
        const times = alerts(hosts, slowId).map((event) => Date.parse(event.timestamp));
        const gaps = times.slice(1).map((at, i) => at - times[i]!);
        assert.equal(
          gaps.filter((gap) => gap < WINDOW_MS - 1000),
          [],
          `one alert per window, also across the takeover (gaps ${gaps.join(', ')} ms)`,
        );
        assert.equal(
          overdue(hosts, slowId).length,
          1,
          'no second OVERDUE alert for the same due time after the takeover',
        );
        process.stdout.write(
          `  (duties taken over ${(takeoverMs / 1000).toFixed(1)} s after the owner was killed; dutyTtlMs ${DUTY_TTL_MS})\n`,
        );
      },
    );
  },
);

(absent ? duties.skip : duties)(
  'a duty that looks free on one mount is taken only if a second look past the cache still finds it free',
  async () => {
    const vol = volume!;
    const tree = `claim-${Date.now()}`;
    await initTree(toPaths(`${vol.admin}/${tree}`));
    const homes = ['a', 'b'].map((name) => tempRoot(`claim-${name}`));
    const mounts = [];
    for (const home of homes) mounts.push(await vol.mount(toPaths(home).tasks, { subdir: `${tree}/tasks` }));
    try {
      await claimAgainstLateRecord(homes);
    } finally {
      for (const mount of mounts) await mount.unmount();
    }
  },
);

/** b claims a duty while a's record lands through the other mount. */
async function claimAgainstLateRecord(homes: string[]): Promise<void> {
  const [a, b] = homes.map((home) => toPaths(home)) as [ReturnType<typeof toPaths>, ReturnType<typeof toPaths>];
  const [ownerA, ownerB] = [
    { host: 'host-a', pid: 101 },
    { host: 'host-b', pid: 102 },
  ];
  // b looks while the duty file is missing; a's record lands through the other mount during b's claim,
  // as a write b's cached look missed would.
  const claimed = claimDuty(b, 'murmur.core', { self: ownerB, now: new Date(), ttlMs: DUTY_TTL_MS });
  await new Promise((resolve) => setTimeout(resolve, 500));
  mkdirSync(dirname(a.dutyFile('murmur.core')), { recursive: true });
  writeFileSync(
    a.dutyFile('murmur.core'),
    JSON.stringify({ duty: 'murmur.core', owner: ownerA, renewedAt: new Date().toISOString() }),
  );
  const claim = await claimed;
  assert.equal([claim.held, claim.record?.owner], [false, ownerA], 'b left the duty to a');
  assert.equal((await readDuty(a, 'murmur.core'))?.owner, ownerA, 'the record still names a');
}

duties.run();
