// Several hosts on a real distributed filesystem, one daemon killed: two daemons, each on its own
// GlusterFS mount of one replica-2 volume (glusterd started by the test, bricks in a temp dir), take
// a burst of svc_dispatch calls split across them, and one is killed mid-burst, from outside or with
// a dispatch half done: the other finishes every task, and what it moves to data/conflicts/ is only
// the old copy of a commit the killed one left half done.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATUSES } from '../../lib/core/status.js';
import { readRegularFileSync } from '../../lib/fs/regular-file.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { parseTask, type Task } from '../../lib/core/task.js';
import { parseFrontmatter } from '../../lib/fs/frontmatter.js';
import { startGlusterVolume, glusterMissing, type GlusterVolume } from '../helpers/gluster.js';
import { cleanRoots, within } from '../helpers/root.js';
import { fuseAbsent } from '../helpers/sshfs.js';
import { withTwoHosts, type Host } from '../helpers/two-daemons.js';
import { duplicates, readEvents, results, untilDone } from '../helpers/two-daemons-checks.js';
import { dispatchBurst } from '../helpers/two-daemons-load.js';
import { newTree } from './gluster-setup.js';

const ONLY = process.env.SVC_GLUSTER_ONLY; // 'coherent', 'default' or 'kill': one of the tests (for measuring)
const KILL_TASKS = Number(process.env.SVC_GLUSTER_KILL_TASKS ?? 80);
/** Short, so the killed daemon's leases expire soon; long enough for an agent on a busy machine. */
const LEASE_TTL_MS = 15_000;

const absent = fuseAbsent();
if (absent) {
  process.stderr.write(
    `\n${'!'.repeat(100)}\n!!! SKIPPED e2e.gluster-kill (a daemon killed on GlusterFS mounts of one tree): ${absent}.\n!!! These tests need FUSE; they ran NOT AT ALL on this machine.\n${'!'.repeat(100)}\n\n`,
  );
}

const gluster = suite('e2e.gluster-kill');
let volume: GlusterVolume | undefined;
gluster.before(async () => {
  if (absent) return;
  const missing = await glusterMissing();
  if (missing) throw new Error(missing);
  volume = await startGlusterVolume();
});
gluster.after(async () => void (await volume?.stop()));
gluster.after.each(cleanRoots);

/**
 * How the first daemon dies: SIGKILLed from outside at whatever point its burst is, or by its own
 * fault hook (SVC_TEST_CRASH_AT) at its 10th dispatch, the in-progress copy written and the ready
 * one still there: a half-done dispatch the other daemon must find and repair on its mount.
 */
const KILLS: Array<{ what: string; crashAt?: string }> = [
  { what: 'SIGKILLed mid-burst' },
  { what: 'killed with a dispatch half done', crashAt: 'commit.written@dispatch#10' },
];

for (const kill of KILLS.filter(() => !ONLY || ONLY === 'kill'))
  (absent ? gluster.skip : gluster)(
    `a daemon ${kill.what} on GlusterFS: its leases expire and the other daemon finishes all ${KILL_TASKS} tasks, each completed once`,
    async () => {
      const vol = volume!;
      await vol.setCoherent(false);
      const tree = `kill-${Date.now()}`;
      const tasks = await newTree(vol, tree);
      await withTwoHosts(
        {
          mount: (home) => vol.mount(toPaths(home).tasks, { subdir: `${tree}/tasks` }),
          daemon: { defaultLeaseTtlMs: LEASE_TTL_MS },
          hostEnv: { a: kill.crashAt ? { SVC_TEST_CRASH_AT: kill.crashAt } : {} },
        },
        async (hosts) => {
          const [a, b] = hosts as [Host, Host];
          const daemons = hosts.map((host) => `${hostname()} ${host.daemon!.child.pid}`);
          const ids = await dispatchBurst(hosts, KILL_TASKS);
          const byA = () => readEvents(a.home).filter((event) => event.type === 'task.dispatched').length;
          if (kill.crashAt) {
            await within(60_000, () => a.daemon!.child.signalCode === 'SIGKILL', `a killing itself at ${kill.crashAt}`);
            assert.match(a.daemon!.output(), `SVC_TEST_CRASH_AT=${kill.crashAt} reached`);
          } else {
            await within(60_000, () => byA() >= 10, 'a dispatching 10 tasks');
            await a.daemon!.kill();
          }
          const killedAt = Date.now();
          await untilDone(tasks, ids, hosts);
          const expired = readEvents(b.home).filter((event) => event.type === 'lease.expired');
          assert.ok(expired.length > 0, "b moved some of the killed daemon's leases back to ready");
          await within(
            20_000,
            () => ids.every((id) => results(hosts).some((run) => run.taskId === id)),
            'every agent recorded its answer',
          );
          assertOnceAfterKill(hosts, tasks, ids, daemons);
          if (kill.crashAt) {
            const moved = readdirSync(toPaths(b.home).conflicts);
            assert.ok(
              moved.some((name) => name.includes('.ready.')),
              `b moved the half-done dispatch's ready copy aside: ${moved.join(', ')}`,
            );
          }
          process.stdout.write(
            `  (${expired.length} leases of the killed daemon expired; all done ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill)\n`,
          );
        },
      );
    },
  );

/**
 * Exactly once with a daemon killed: each task completed once (an agent of the killed daemon got no
 * answer: its task was done before the kill, or ran again on the other daemon), dispatched twice at most
 * and then only after its lease expired, no task outside done/, nothing in data/conflicts/.
 */
function assertOnceAfterKill(hosts: Host[], tasks: string, ids: string[], daemons: string[]): void {
  const [, b] = hosts as [Host, Host];
  const runs = results(hosts);
  const completed = runs.filter((run) => run.status === 200).map((run) => run.taskId);
  assert.equal(duplicates(completed), [], 'each task completed once');
  // A completion the killed daemon applied but could not answer leaves its agent without a reply (status 0).
  const unanswered = new Set(runs.filter((run) => run.status === 0 && run.host === 'a').map((run) => run.taskId));
  const silent = ids.filter((id) => !completed.includes(id) && !unanswered.has(id));
  const history = (id: string) =>
    hosts.flatMap((host) =>
      readEvents(host.home)
        .filter((event) => event.taskId === id)
        .map((event) => `${host.name} ${event.timestamp} ${event.type} ${JSON.stringify(event.payload)}`),
    );
  assert.equal(
    silent,
    [],
    `every task completed by an agent: ${silent.map((id) => `${id}:\n${history(id).join('\n')}\nruns: ${JSON.stringify(runs.filter((run) => run.taskId === id))}`).join('\n')}`,
  );
  assert.equal(
    runs.filter((run) => run.status !== 200 && run.status !== 0).map((run) => [run.taskId, run.reply]),
    [],
    'no completion answered with a failure',
  );
  const events = hosts.flatMap((host) => readEvents(host.home));
  const dispatched = events.filter((event) => event.type === 'task.dispatched');
  const owners = dispatched.map((event) => {
    const { host, pid } = event.payload as { host?: string; pid?: number };
    return `${host} ${pid}`;
  });
  assert.equal(
    owners.filter((owner) => !daemons.includes(owner)),
    [],
    'every lease names a daemon that granted it',
  );
  const expired = new Set(
    readEvents(b.home)
      .filter((event) => event.type === 'lease.expired')
      .map((event) => event.taskId),
  );
  const twice = duplicates(dispatched.map((event) => String(event.taskId)));
  assert.equal(
    twice.filter((id) => !expired.has(id)),
    [],
    'a task dispatched twice only after its lease expired',
  );
  assert.equal(
    duplicates(
      readEvents(b.home)
        .filter((event) => event.type === 'task.dispatched')
        .map((event) => String(event.taskId)),
    ),
    [],
    'the surviving daemon dispatched each task once',
  );
  const stranded = STATUSES.filter((status) => status !== 'done').flatMap((status) =>
    readdirSync(`${tasks}/${status}`).filter((name) => name.endsWith('.md')),
  );
  assert.equal(stranded, [], 'no task outside done/');
  for (const host of hosts) {
    const conflicts = toPaths(host.home).conflicts;
    const moved = existsSync(conflicts) ? readdirSync(conflicts) : [];
    const unexplained = moved.filter((name) => !isHalfDoneCommit(host, tasks, `${conflicts}/${name}`, daemons[0]!));
    const history = unexplained.map(
      (name) =>
        `${name}: ${readEvents(host.home)
          .filter((event) => name.includes(String(event.taskId)))
          .map((event) => `${event.timestamp} ${event.type}`)
          .join(', ')}`,
    );
    assert.equal(
      history,
      [],
      `nothing in data/conflicts/ of ${host.name} but the old copy of a commit the killed daemon left half done`,
    );
  }
  assert.not.match(
    readFileSync(toPaths(b.home).daemonLog, 'utf8'),
    /"internal"|internal error/,
    'no internal error in the log of b',
  );
  assert.not.match(b.daemon!.output(), /Assertion failed|Aborted|core dumped/, 'b did not abort');
}

/**
 * True when `path`, a copy in data/conflicts/, is the old copy of a commit the killed daemon had
 * written but not yet unlinked when it died, moved there by a repair the host recorded
 * (`duplicate_resolved`) and older than the task's copy in done/. Either a completion: the old copy
 * in progress under a lease that daemon granted; or a dispatch: the old copy in ready/, the copy
 * kept in progress under a lease this host had not granted (none of its dispatches of the task came
 * before the repair), so the killed daemon's, which this host later found expired.
 */
function isHalfDoneCommit(host: Host, tasks: string, path: string, killed: string): boolean {
  // Not readFileSync(file, 'utf8'): Node 20 aborts the process when a close on the mount fails.
  const read = (file: string): Task =>
    parseTask(parseFrontmatter(readRegularFileSync(file, 1 << 20).text, file).data, file);
  const old = { task: read(path) };
  const id = old.task.id;
  const kept = { task: read(`${tasks}/done/${id}.md`) };
  const events = readEvents(host.home).filter((event) => event.taskId === id);
  const repair = events.find(
    (event) => event.type === 'recovery_action' && JSON.stringify(event.payload).includes(path.split('/').pop()!),
  );
  if (!repair || Date.parse(old.task.updatedAt) >= Date.parse(kept.task.updatedAt)) return false;
  if (old.task.status === 'in-progress') return `${old.task.lease?.host} ${old.task.lease?.pid}` === killed;
  const keptInProgress = /(^|\/)in-progress\//.test(
    (repair.payload as { details?: { kept?: string } }).details?.kept ?? '',
  );
  const before = (type: string) => events.some((event) => event.type === type && event.timestamp < repair.timestamp);
  const after = (type: string) => events.some((event) => event.type === type && event.timestamp >= repair.timestamp);
  return old.task.status === 'ready' && keptInProgress && !before('task.dispatched') && after('lease.expired');
}

gluster.run();
