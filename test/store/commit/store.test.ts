import { existsSync, readdirSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../../lib/store/commit/store.js';
import { readEvents } from '../../../lib/store/events/log.js';
import { cleanRoots, fixedClock, tempRoot } from '../../helpers/root.js';

const create = suite('store.create');
create.after.each(cleanRoots);

create('writes a backlog task with every required field and a sequential id', async () => {
  const root = tempRoot();
  const store = createStore({ root, clock: fixedClock() });
  const a = await store.create({ title: 'First', createdBy: 'cli' });
  const b = await store.create({ title: 'Second', createdBy: 'cli', priority: 'high', routing: { agent: 'dev' } });
  assert.is(a.task.id, 'TASK-2026-11-21-001');
  assert.is(b.task.id, 'TASK-2026-11-21-002');
  assert.is(a.status, 'backlog');
  assert.ok(existsSync(`${root}/tasks/backlog/TASK-2026-11-21-002.md`));
  const text = readFileSync(`${root}/tasks/backlog/TASK-2026-11-21-002.md`, 'utf8');
  assert.match(
    text,
    /^---\nschemaVersion: 1\nid: TASK-2026-11-21-002\nproject: default\ntitle: Second\nstatus: backlog\npriority: high\n/,
  );
  assert.ok(existsSync(`${root}/tasks/ready/.gitkeep`));
  const events = await readEvents(root);
  assert.equal(
    events.map((e) => e.type),
    ['task.created', 'task.created'],
  );
  assert.equal(events[1]!.payload, {
    title: 'Second',
    status: 'backlog',
    priority: 'high',
    routing: { agent: 'dev' },
    createdBy: 'cli',
  });
});

const commit = suite('store.commit');
commit.after.each(cleanRoots);

commit('moves the file, heals nothing else and logs one transition', async () => {
  const root = tempRoot();
  const clock = fixedClock();
  const store = createStore({ root, clock });
  const { task } = await store.create({ title: 'Move me', createdBy: 'cli', body: 'Body text' });
  clock.advance(1000);
  const result = await store.commit(
    task.id,
    (cur) => ({ task: cur.task, body: cur.body, status: 'ready', reason: 'go' }),
    'tester',
  );
  assert.ok(result.transitioned);
  assert.is(result.after.status, 'ready');
  assert.is(result.after.task.status, 'ready');
  assert.is(result.after.task.lastTransitionAt, '2026-11-21T10:00:01.000Z');
  assert.is(result.after.body.trim(), 'Body text');
  assert.not.ok(existsSync(`${root}/tasks/backlog/${task.id}.md`));
  const moves = (await readEvents(root)).filter((e) => e.type === 'task.transitioned');
  assert.equal(
    moves.map((e) => [e.actor, e.payload]),
    [['tester', { from: 'backlog', to: 'ready', reason: 'go' }]],
  );
});

commit('refuses a transition outside the table and changes nothing', async () => {
  const root = tempRoot();
  const store = createStore({ root, clock: fixedClock() });
  const { task } = await store.create({ title: 'Stay', createdBy: 'cli' });
  const before = readFileSync(`${root}/tasks/backlog/${task.id}.md`, 'utf8');
  try {
    await store.commit(task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'in-progress' }), 'tester');
    assert.unreachable('should refuse');
  } catch (err) {
    assert.is((err as { code: string }).code, 'invalid_transition');
    assert.match((err as Error).message, /cannot move from backlog to in-progress/);
  }
  assert.is(readFileSync(`${root}/tasks/backlog/${task.id}.md`, 'utf8'), before);
});

commit(
  'a commit that finds an older second copy keeps the newer, moves the older to data/conflicts/ and records it',
  async () => {
    const root = tempRoot();
    const clock = fixedClock();
    const store = createStore({ root, clock });
    const { task } = await store.create({ title: 'Twice', createdBy: 'cli' });
    const older = readFileSync(`${root}/tasks/backlog/${task.id}.md`, 'utf8');
    clock.advance(1000);
    await store.commit(task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'tester');
    writeFileSync(`${root}/tasks/backlog/${task.id}.md`, older); // as a writer killed between its write and its unlink leaves it
    clock.advance(1000);
    const result = await store.commit(
      task.id,
      (cur) => ({ task: { ...cur.task, priority: 'high' }, body: cur.body, status: 'ready' }),
      'tester',
    );
    assert.is(result.after.status, 'ready');
    assert.is(result.after.task.priority, 'high');
    assert.not.ok(existsSync(`${root}/tasks/backlog/${task.id}.md`));
    const kept = readdirSync(`${root}/data/conflicts`);
    assert.equal(kept, [`2026-11-21T10-00-02-000Z.backlog.${task.id}.md`]);
    assert.is(readFileSync(`${root}/data/conflicts/${kept[0]}`, 'utf8'), older);
    const recovered = (await readEvents(root)).filter((e) => e.type === 'recovery_action');
    assert.equal(
      recovered.map((e) => [e.taskId, e.actor, e.payload]),
      [
        [
          task.id,
          'tester',
          {
            action: 'duplicate_resolved',
            details: { kept: `tasks/ready/${task.id}.md`, conflicts: [`data/conflicts/${kept[0]}`] },
          },
        ],
      ],
    );
  },
);

create('refuses a body that would make the file unreadable, writing nothing', async () => {
  const root = tempRoot();
  const store = createStore({ root, clock: fixedClock() });
  try {
    await store.create({ title: 'Huge', createdBy: 'cli', body: 'x'.repeat(1024 * 1024) });
    assert.unreachable('should refuse');
  } catch (err) {
    assert.is((err as { code: string }).code, 'too_large');
    assert.match((err as Error).message, /the limit is 1048576/);
  }
  assert.equal((await store.list()).tasks, []);
  assert.equal(readdirSync(`${root}/tasks/backlog`), ['.gitkeep']);
});

create('succeeds once the file is written, even when another process moves it at once', async () => {
  const root = tempRoot();
  const store = createStore({ root, clock: fixedClock() });
  await store.init();
  // A scheduler on another host takes each new ready task the moment it lands.
  const taker = watch(`${root}/tasks/ready`, (_event, name) => {
    if (name && /^TASK-.*\.md$/.test(name))
      renameIfThere(`${root}/tasks/ready/${name}`, `${root}/tasks/in-progress/${name}`);
  });
  try {
    for (let i = 0; i < 40; i++) {
      const created = await store.create({
        title: `Taken ${i}`,
        status: 'ready',
        createdBy: 'cli',
        routing: { agent: 'dev' },
      });
      assert.is(created.status, 'ready');
      assert.is(created.task.title, `Taken ${i}`);
    }
  } finally {
    taker.close();
  }
  assert.is(readdirSync(`${root}/tasks/in-progress`).length + readdirSync(`${root}/tasks/ready`).length, 40 + 2);
});

function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch {
    // already taken
  }
}

create.run();
commit.run();
