// A child process for the store's multi-process tests: `node --import tsx worker.ts '<job json>'`.
// It prints one line per fact the parent needs (`start`, `created <id>`, `holding`, `result <json>`).
import { open } from 'node:fs/promises';
import { isSvcError } from '../../lib/core/errors.js';
import { assertTransition, type Status } from '../../lib/core/status.js';
import { withLock } from '../../lib/fs/lock/lock.js';
import { createStore, type Store } from '../../lib/store/commit/store.js';

/** The jobs a worker can run. */
export type Job =
  | { op: 'create'; root: string; count: number }
  | { op: 'claim'; root: string; ids: string[]; agent: string }
  | { op: 'cycle'; root: string; ids: string[]; count: number; createEvery: number; gated?: boolean }
  | { op: 'hold'; root: string; id: string; status: Status }
  | { op: 'group'; root: string; ids: string[] };

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const store = createStore({ root: job.root });
const say = (line: string) => process.stdout.write(`${line}\n`);

const NEXT: Partial<Record<Status, Status[]>> = {
  backlog: ['ready', 'blocked'],
  ready: ['blocked', 'backlog'],
  blocked: ['ready', 'backlog'],
};

async function createMany(store: Store, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const { task } = await store.create({
      title: `Task ${process.pid}-${i}`,
      createdBy: `worker-${process.pid}`,
      body: `Body ${i}\n`,
    });
    say(`created ${task.id}`);
  }
}

async function claimAll(store: Store, ids: string[], agent: string): Promise<void> {
  const won: string[] = [];
  const lost: Record<string, number> = {};
  for (const id of shuffle(ids)) {
    try {
      const result = await store.commit(
        id,
        (cur) => {
          assertTransition(id, { from: cur.status, to: 'in-progress' }, 'claim');
          const lease = { agent, expiresAt: new Date(Date.now() + 600_000).toISOString(), sessionId: `${agent}-${id}` };
          return { task: { ...cur.task, lease }, body: cur.body, status: 'in-progress', cause: 'claim' };
        },
        agent,
      );
      if (result.transitioned) won.push(id);
    } catch (err) {
      const code = isSvcError(err) ? err.code : `unexpected: ${String(err)}`;
      lost[code] = (lost[code] ?? 0) + 1;
    }
  }
  say(`result ${JSON.stringify({ won, lost })}`);
}

async function cycle(store: Store, ids: string[], count: number, createEvery: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    if (i % createEvery === 0) {
      const { task } = await store.create({ title: `Made while cycling ${i}`, createdBy: 'cycler' });
      say(`created ${task.id}`);
      continue;
    }
    const id = ids[Math.floor(Math.random() * ids.length)]!;
    await store
      .commit(
        id,
        (cur) => {
          const choices = NEXT[cur.status] ?? ['ready'];
          const status = choices[Math.floor(Math.random() * choices.length)]!;
          return { task: cur.task, body: `${cur.body.trimEnd()}\nstep ${i}\n`, status };
        },
        'cycler',
      )
      .catch((err: unknown) => {
        if (!isSvcError(err, 'locked')) throw err; // a dead predecessor's lock without an owner file
      });
  }
  say('done');
}

/**
 * Commits in groups until killed: one lane per id moves its task between backlog and ready, each
 * move setting `metadata.step` one higher (`writing <id> <step>` when the change is built, `moved
 * <id> <step>` once the commit returned), and as many lanes create tasks (`created <id>` once
 * returned). The changes of all lanes are in flight together, so they share directory fsyncs.
 */
async function commitInGroups(store: Store, ids: string[]): Promise<void> {
  const move = async (id: string) => {
    for (;;) {
      const { after } = await store.commit(
        id,
        (cur) => {
          const step = Number(cur.task.metadata.step ?? 0) + 1;
          say(`writing ${id} ${step}`);
          return {
            task: { ...cur.task, metadata: { ...cur.task.metadata, step } },
            body: cur.body,
            status: step % 2 ? 'ready' : 'backlog',
          };
        },
        'grouper',
      );
      say(`moved ${id} ${String(after.task.metadata.step)}`);
    }
  };
  const create = async (lane: number) => {
    for (let i = 0; ; i++)
      say(`created ${(await store.create({ title: `Grouped ${lane}-${i}`, createdBy: 'grouper' })).task.id}`);
  };
  await Promise.all([...ids.map(move), ...ids.map((_, lane) => create(lane))]);
}

/** Takes the task's lock, leaves a half-written temporary beside the task, and waits to be killed. */
async function holdWithTemporary(store: Store, id: string, status: Status): Promise<void> {
  await withLock(store.paths.lockFile(id), { what: id }, async () => {
    const handle = await open(`${store.paths.taskFile(status, id)}.${process.pid}.partial`, 'w');
    await handle.write('---\nschemaVersion: 1\nid: ');
    await handle.sync();
    say('holding');
    await new Promise(() => setInterval(() => undefined, 1000));
  });
}

function shuffle<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

say('start');
if (job.op === 'create') await createMany(store, job.count);
else if (job.op === 'claim') await claimAll(store, job.ids, job.agent);
else if (job.op === 'cycle') {
  if (job.gated) await new Promise((resolve) => process.stdin.once('data', resolve)); // started early, runs on `go()`
  await cycle(store, job.ids, job.count, job.createEvery);
} else if (job.op === 'group') await commitInGroups(store, job.ids);
else if (job.op === 'hold') await holdWithTemporary(store, job.id, job.status);
