import { readdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isGone } from '../../lib/core/errors.js';
import { STATUSES, type Status } from '../../lib/core/status.js';
import { readEvents } from '../../lib/store/events/log.js';
import { isTempName, toTaskId } from '../../lib/store/disk/paths.js';
import { readTaskFile } from '../../lib/store/disk/task-file.js';
import { createStore } from '../../lib/store/commit/store.js';
import { svc } from '../helpers/cli.js';
import { call, closeDaemons, healthy, startChild, type ChildDaemon } from '../helpers/daemon.js';
import { checkTree } from '../helpers/invariants.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// A daemon SIGKILLed inside a batch of changes (SVC_TEST_CRASH_AT at a batch's steps) while 16
// clients change tasks through its socket, then restarted: every change it answered is on disk
// once, no task file is partial, no task stays in two folders after the daemon's repair, and what
// else the crash left (temporaries) is ignored by readers and removed by `svc doctor --fix`.
const POINTS: [at: string, temporariesLeft: boolean][] = [
  ['batch.temp-written#40', true], // some temporaries of a batch written, others not yet
  ['batch.temps-written#30', true], // every temporary of a batch written, none renamed
  ['batch.renamed#40', true], // some renamed (their old copies still there), the others temporaries
  ['batch.synced#30', false], // renamed and the directories fsynced, nothing answered
];
const LANES = 8; // clients moving a task each; as many create: 16 changes at once

const crash = suite('e2e: a daemon killed inside a batch');
crash.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

for (const [at, temporariesLeft] of POINTS) {
  crash(`killed at ${at}, after a restart it has every answered change once and nothing partial`, async () => {
    const root = tempRoot();
    const store = createStore({ root });
    const lanes: string[] = [];
    for (let i = 0; i < LANES; i++)
      lanes.push((await store.create({ title: `Lane ${i}`, createdBy: 'test', status: 'ready' })).task.id);
    const first = startChild(root, ['daemon', 'run'], { SVC_TEST_CRASH_AT: at });
    await healthy(root);
    const clients = runClients(root, lanes);
    assert.equal(await first.exited, { code: null, signal: 'SIGKILL' });
    assert.match(first.output(), `SVC_TEST_CRASH_AT=${at} reached`);
    const { acked, inFlight, created, count } = await clients;
    assert.ok(count > 0, 'changes were answered before the kill');
    // As the crash left the tree: every task file whole; temporaries beside them only mid-batch.
    const before = await scan(root);
    assert.equal(before.broken, [], 'no task file is partial');
    if (temporariesLeft) assert.ok(before.temps.length > 0, 'the kill left a batch half done');
    await restart(root);
    await within(20_000, async () => (await scan(root)).twice.length === 0, 'the daemon to repair every second copy');
    const after = await scan(root);
    assert.equal(after.broken, []);
    for (const [id, status] of acked) {
      const now = (await store.get(id)).status;
      assert.ok(
        now === status || now === inFlight.get(id),
        `${id} answered ${status}, in flight ${inFlight.get(id)}, found ${now}`,
      );
    }
    const createdEvents = await readEvents(root, { type: 'task.created' });
    for (const id of created) {
      assert.ok(after.where.has(id), `answered create ${id} is on disk`);
      assert.is(createdEvents.filter((e) => e.taskId === id).length, 1, `${id} created once`);
    }
    const listed = await store.list();
    assert.equal(listed.invalid, [], 'readers ignore the temporaries');
    const doctor = await svc(root, 'doctor', '--fix');
    assert.is(doctor.code, 0, doctor.stdout + doctor.stderr);
    const fixed = doctor.stdout.split('\n').filter((line) => line.startsWith('fixed: '));
    assert.ok(
      fixed.every((line) => line.startsWith('fixed: remove temporary file')),
      doctor.stdout,
    );
    const { violations } = await checkTree(root, [...lanes, ...created]);
    assert.equal(violations, []);
    process.stdout.write(
      `  (${at}: ${count} answered, ${before.temps.length} temporaries, ` +
        `${before.twice.length} second copies at the kill)\n`,
    );
  });
}

/** What the clients were answered: each lane's last status, the status of a call in flight, the ids created. */
interface Answers {
  acked: Map<string, Status>;
  inFlight: Map<string, Status>;
  created: string[];
  /** Every answered change. */
  count: number;
}

/** 8 clients blocking and unblocking their task and 8 creating tasks, until the daemon goes away. */
async function runClients(root: string, lanes: string[]): Promise<Answers> {
  const answers: Answers = { acked: new Map(), inFlight: new Map(), created: [], count: 0 };
  const tool = async (name: string, params: object) => {
    const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool: name, params });
    if (status !== 200) throw new Error(`${name}: ${status} ${JSON.stringify(body)}`);
    return (body as { result: Record<string, unknown> }).result;
  };
  const move = async (id: string) => {
    for (let blocked = false; ; blocked = !blocked) {
      answers.inFlight.set(id, blocked ? 'ready' : 'blocked');
      await (blocked ? tool('svc_task_unblock', { taskId: id }) : tool('svc_task_block', { taskId: id, reason: 'x' }));
      answers.acked.set(id, blocked ? 'ready' : 'blocked');
      answers.count++;
    }
  };
  const create = async (lane: number) => {
    for (let i = 0; ; i++)
      answers.created.push(
        String((await tool('svc_dispatch', { title: `Made ${lane}-${i}`, brief: 'Batched.' })).taskId),
      );
  };
  await Promise.allSettled([...lanes.map(move), ...lanes.map((_, lane) => create(lane))]);
  return answers;
}

async function restart(root: string): Promise<ChildDaemon> {
  const second = startChild(root);
  await healthy(root);
  return second;
}

/** Where each id is, the ids in two folders, the temporaries, and the task files that do not parse. */
async function scan(
  root: string,
): Promise<{ where: Map<string, Status[]>; twice: string[]; temps: string[]; broken: string[] }> {
  const { statusDir } = createStore({ root }).paths;
  const where = new Map<string, Status[]>();
  const temps: string[] = [];
  const broken: string[] = [];
  for (const status of STATUSES) {
    for (const name of readdirSync(statusDir(status))) {
      const id = toTaskId(name);
      if (isTempName(name)) temps.push(name);
      if (!id) continue;
      where.set(id, [...(where.get(id) ?? []), status]);
      await readTaskFile(`${statusDir(status)}/${name}`).catch(
        (err: Error) => isGone(err) || broken.push(`${name}: ${err.message}`), // gone: moved since the listing
      );
    }
  }
  return { where, twice: [...where].filter(([, found]) => found.length > 1).map(([id]) => id), temps, broken };
}

crash.run();
