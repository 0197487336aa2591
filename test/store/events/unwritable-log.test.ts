import { readdirSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../../lib/store/events/log.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { svc } from '../../helpers/cli.js';
import { cleanRoots, fixedClock, tempRoot } from '../../helpers/root.js';
import { breakEvents, breakEventsKeeping } from './break-events.js';

// A change the store committed is a success even when its event cannot be appended: spooled, then
// appended once, by the store, the command line and svc doctor.
const committed = suite('store: a committed change is a success');
committed.after.each(cleanRoots);

committed(
  'create and commit succeed when the event log cannot be appended; the store reports it and appends later',
  async () => {
    const root = tempRoot();
    const failures: string[] = [];
    const store = createStore({
      root,
      clock: fixedClock(),
      onEventError: (err) => void failures.push((err as Error).message),
    });
    await store.init();
    const repair = breakEvents(root);
    const { task } = await store.create({ title: 'Unlogged', createdBy: 'test' });
    const moved = await store.commit(task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'test');
    assert.is(moved.after.status, 'ready');
    assert.is(failures.length, 2);
    assert.match(failures[0]!, /ENOTDIR/);
    repair();
    assert.ok(await store.events.flush());
    assert.equal(
      (await readEvents(root)).map((e) => e.type),
      ['task.created', 'task.transitioned'],
    );
  },
);

committed('the command line reports success with a warning when the event could not be appended', async () => {
  const root = tempRoot();
  const created = await svc(root, 'task', 'create', 'Warned');
  const id = created.stdout.split('\n')[0]!;
  breakEvents(root);
  const promoted = await svc(root, 'task', 'promote', id);
  assert.is(promoted.code, 0, promoted.stderr);
  assert.is(promoted.stdout.trim(), `${id} backlog -> ready`);
  assert.match(
    promoted.stderr,
    /^warning: the change was made, but its event could not be appended to the event log \(ENOTDIR/m,
  );
  assert.match(
    promoted.stderr,
    /hint: the event is kept in data\/events-spool\/\S+\.jsonl and appended once data\/events\/ is writable/,
  );
});

committed(
  'a command that cannot append its event spools it; svc events and the next change append it, once',
  async () => {
    const root = tempRoot();
    const { eventsSpool } = toPaths(root);
    const id = (await svc(root, 'task', 'create', 'Spooled')).stdout.split('\n')[0]!;
    let repair = breakEventsKeeping(root);
    const promoted = await svc(root, 'task', 'promote', id);
    assert.is(promoted.code, 0, promoted.stderr);
    const spooled = readdirSync(eventsSpool);
    assert.is(spooled.length, 1);
    assert.ok(
      promoted.stderr.includes(
        `hint: the event is kept in data/events-spool/${spooled[0]} and appended once data/events/ is writable`,
      ),
      promoted.stderr,
    );
    const blocked = await svc(root, 'task', 'block', id, '--reason', 'waiting');
    assert.is(blocked.code, 0, blocked.stderr);
    assert.is(readdirSync(eventsSpool).length, 2, 'a second failed append spools a second file');
    repair();
    const shown = await svc(root, 'events', '--json', '--task', id);
    assert.is(shown.code, 0, shown.stderr);
    const types = shown.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; payload: { to?: string } });
    assert.equal(
      types.map((e) => [e.type, e.payload.to]),
      [
        ['task.created', undefined],
        ['task.transitioned', 'ready'],
        ['task.transitioned', 'blocked'],
        ['task.blocked', undefined],
      ],
    );
    assert.equal(readdirSync(eventsSpool), [], 'the spool is emptied');
    repair = breakEventsKeeping(root);
    await svc(root, 'task', 'unblock', id);
    repair();
    await svc(root, 'task', 'status', id, 'backlog');
    assert.equal(
      (await readEvents(root, { taskId: id })).map((e) => e.payload.to ?? e.type),
      ['task.created', 'ready', 'blocked', 'task.blocked', 'backlog', 'ready', 'task.unblocked'],
      'the next change appends the spool after its own event',
    );
  },
);

committed('a command whose event can be neither appended nor spooled says so and still succeeds', async () => {
  const root = tempRoot();
  const id = (await svc(root, 'task', 'create', 'Lost')).stdout.split('\n')[0]!;
  breakEvents(root);
  writeFileSync(toPaths(root).eventsSpool, 'not a directory\n');
  const promoted = await svc(root, 'task', 'promote', id);
  assert.is(promoted.code, 0, promoted.stderr);
  assert.match(
    promoted.stderr,
    /hint: it could not be kept in data\/events-spool\/ either, so svc events will not show this change; check that data\/ is writable/,
  );
});

committed('svc doctor reports spooled events and --fix appends them, or says why it cannot', async () => {
  const root = tempRoot();
  const id = (await svc(root, 'task', 'create', 'Doctored')).stdout.split('\n')[0]!;
  const repair = breakEventsKeeping(root);
  assert.is((await svc(root, 'task', 'promote', id)).code, 0);
  const report = await svc(root, 'doctor');
  assert.is(report.code, 1, report.stdout);
  assert.match(report.stdout, /^events: 1 spool file in data\/events-spool\/ not yet appended to the event log$/m);
  assert.match(report.stdout, /^hint: run `svc doctor --fix` \(or `svc events`\) to append them/m);
  assert.match(report.stdout, /^tasks tree: no problems$/m);
  const json = JSON.parse((await svc(root, 'doctor', '--json')).stdout) as {
    ok: boolean;
    problems: number;
    eventSpool: { files: number };
  };
  assert.equal([json.ok, json.problems, json.eventSpool.files], [false, 1, 1]);
  const failed = await svc(root, 'doctor', '--fix');
  assert.is(failed.code, 1);
  assert.match(failed.stdout, /^failed: appending the events of data\/events-spool\/ \(1 file\): .*ENOTDIR/m);
  assert.is(readdirSync(toPaths(root).eventsSpool).length, 1, 'kept for the next try');
  repair();
  const fixed = await svc(root, 'doctor', '--fix');
  assert.is(fixed.code, 0, fixed.stdout);
  assert.match(fixed.stdout, /^fixed: appended 1 spooled event from data\/events-spool\/ to the event log$/m);
  assert.match(fixed.stdout, /^ok: no problems$/m);
  assert.equal(
    (await readEvents(root, { taskId: id })).map((e) => e.payload.to ?? e.type),
    ['task.created', 'ready'],
  );
  assert.is((await svc(root, 'doctor')).code, 0);
});

committed.run();
