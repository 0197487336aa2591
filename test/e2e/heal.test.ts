import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';

const heal = suite('e2e.heal');
heal.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

heal(
  'a file moved by hand while the daemon runs gets its frontmatter healed, with one transition by filesystem',
  async () => {
    const root = tempRoot();
    const store = createStore({ root });
    const { task } = await store.create({ title: 'Moved by hand', createdBy: 'test' });
    await startTestDaemon(root, { schedule: false });
    renameSync(`${root}/tasks/backlog/${task.id}.md`, `${root}/tasks/blocked/${task.id}.md`);
    await within(
      5000,
      () => /\nstatus: blocked\n/.test(readFileSync(`${root}/tasks/blocked/${task.id}.md`, 'utf8')),
      'healed frontmatter',
    );
    const moves = await within(
      3000,
      async () => {
        const found = await readEvents(root, { taskId: task.id, type: 'task.transitioned' });
        return found.length === 1 && found;
      },
      'one transition',
    );
    assert.equal(
      [moves[0]!.actor, moves[0]!.payload],
      ['filesystem', { from: 'backlog', to: 'blocked', reason: 'moved on disk' }],
    );
  },
);

heal(
  'a repair that fails (its task locked by a live writer that stopped refreshing its lock) is tried again until it heals',
  async () => {
    const root = tempRoot();
    const store = createStore({ root });
    const { task } = await store.create({ title: 'Moved while locked', createdBy: 'test' });
    // A lock recorded as this (live) test process's and never refreshed: it counts as stale after 10 s.
    mkdirSync(`${root}/tasks/.locks/${task.id}.lock`, { recursive: true });
    symlinkSync(`${hostname()} ${process.pid}`, `${root}/tasks/.locks/${task.id}.lock/owner`);
    renameSync(`${root}/tasks/backlog/${task.id}.md`, `${root}/tasks/blocked/${task.id}.md`);
    const daemon = await startTestDaemon(root, { schedule: false });
    await logShows(
      daemon.paths.daemonLog,
      new RegExp(`could not repair ${task.id} \\(moved\\): .*locked.*; trying again in 1 s`),
      'the failed repair',
    );
    await within(
      30_000,
      () => /\nstatus: blocked\n/.test(readFileSync(`${root}/tasks/blocked/${task.id}.md`, 'utf8')),
      'the repair tried again',
    );
    const moves = await within(
      5000,
      async () => {
        const found = await readEvents(root, { taskId: task.id, type: 'task.transitioned' });
        return found.length > 0 && found;
      },
      'the transition',
    );
    assert.equal(
      moves.map((m) => [m.actor, m.payload.to]),
      [['filesystem', 'blocked']],
    );
  },
);

heal('at start, an id found in two directories keeps its newer copy; the older goes to data/conflicts/', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const { task } = await store.create({ title: 'Twice', createdBy: 'test' });
  const older = readFileSync(`${root}/tasks/backlog/${task.id}.md`, 'utf8');
  const newer = older
    .replace('status: backlog', 'status: ready')
    .replace(/updatedAt: '[^']+'/, "updatedAt: '2099-01-01T00:00:00.000Z'");
  writeFileSync(`${root}/tasks/ready/${task.id}.md`, newer);
  await startTestDaemon(root, { schedule: false });
  await within(5000, () => !existsSync(`${root}/tasks/backlog/${task.id}.md`), 'the older copy moved away');
  assert.ok(existsSync(`${root}/tasks/ready/${task.id}.md`));
  const conflicts = readdirSync(`${root}/data/conflicts`);
  assert.is(conflicts.length, 1);
  assert.is(readFileSync(`${root}/data/conflicts/${conflicts[0]}`, 'utf8'), older);
});

heal(
  'at start, a task leased for a spawn that was never handed to an adapter goes back to ready at once; live leases are kept',
  async () => {
    const root = tempRoot();
    const store = createStore({ root });
    const lease = (sessionId: string) => ({ agent: 'dev', expiresAt: '2099-01-01T00:00:00.000Z', sessionId });
    const lost = await store.create({ title: 'Lost spawn', status: 'ready', createdBy: 'test' });
    const running = await store.create({ title: 'Still running', status: 'ready', createdBy: 'test' });
    for (const [task, session] of [
      [lost, 's-lost'],
      [running, 's-live'],
    ] as const) {
      await store.commit(
        task.task.id,
        (cur) => ({
          task: { ...cur.task, lease: lease(session) },
          body: cur.body,
          status: 'in-progress',
          cause: 'dispatch',
        }),
        'test',
      );
    }
    mkdirSync(`${root}/data/spawns`, { recursive: true });
    writeFileSync(`${root}/data/spawns/${lost.task.id}@s-lost`, '');
    await startTestDaemon(root);
    await within(5000, async () => (await store.get(lost.task.id)).status === 'ready', 'requeued');
    assert.is((await store.get(running.task.id)).status, 'in-progress');
    assert.equal(readdirSync(`${root}/data/spawns`), []);
  },
);

heal.run();
