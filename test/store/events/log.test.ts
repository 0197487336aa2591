import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeEventSpool, spoolEventLines } from '../../../lib/store/events/spool.js';
import { createEventLog, readEvents } from '../../../lib/store/events/log.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { svc } from '../../helpers/cli.js';
import { cleanRoots, fixedClock, tempRoot } from '../../helpers/root.js';

/** Makes every append to the event log fail (ENOTDIR), as a broken disk or a hand's mistake would. */
function breakEvents(root: string): () => void {
  const { events } = toPaths(root);
  rmSync(events, { recursive: true, force: true });
  mkdirSync(toPaths(root).data, { recursive: true, mode: 0o700 });
  writeFileSync(events, 'not a directory\n');
  return () => {
    rmSync(events);
    mkdirSync(events, { mode: 0o700 });
  };
}

/** Makes every append fail (ENOTDIR) while keeping the lines already written aside, to put back. */
function breakEventsKeeping(root: string): () => void {
  const { events } = toPaths(root);
  renameSync(events, `${events}.aside`);
  writeFileSync(events, 'not a directory\n');
  return () => {
    rmSync(events);
    renameSync(`${events}.aside`, events);
  };
}

const log = suite('store.createEventLog');
log.after.each(cleanRoots);

log('keeps the lines it could not append, in order, and writes them before the next ones', async () => {
  const root = tempRoot();
  const errors: number[] = [];
  const events = createEventLog(root, { onError: (_err, pending) => void errors.push(pending) });
  const repair = breakEvents(root);
  const now = new Date('2026-11-21T10:00:00.000Z');
  await events.record(now, [{ type: 'a', actor: 't', payload: {} }, { type: 'b', actor: 't', payload: {} }]);
  await events.record(now, [{ type: 'c', actor: 't', payload: {} }]);
  assert.equal(errors, [2, 3]);
  assert.is(events.pending(), 3);
  repair();
  await events.record(new Date('2026-11-22T00:00:01.000Z'), [{ type: 'd', actor: 't', payload: {} }]);
  assert.is(events.pending(), 0);
  assert.equal((await readEvents(root)).map((e) => [e.type, e.timestamp.slice(0, 10)]), [['a', '2026-11-21'], ['b', '2026-11-21'], ['c', '2026-11-21'], ['d', '2026-11-22']]);
  assert.ok(await events.flush(), 'nothing left');
});

log('drops the oldest lines past maxPending and counts them', async () => {
  const root = tempRoot();
  const events = createEventLog(root, { maxPending: 2 });
  const repair = breakEvents(root);
  for (const type of ['a', 'b', 'c']) await events.record(new Date('2026-11-21T10:00:00.000Z'), [{ type, actor: 't', payload: {} }]);
  assert.equal([events.pending(), events.dropped()], [2, 1]);
  repair();
  assert.ok(await events.flush());
  assert.equal((await readEvents(root)).map((e) => e.type), ['b', 'c']);
});

const committed = suite('store: a committed change is a success');
committed.after.each(cleanRoots);

committed('create and commit succeed when the event log cannot be appended; the store reports it and appends later', async () => {
  const root = tempRoot();
  const failures: string[] = [];
  const store = createStore({ root, clock: fixedClock(), onEventError: (err) => void failures.push((err as Error).message) });
  await store.init();
  const repair = breakEvents(root);
  const { task } = await store.create({ title: 'Unlogged', createdBy: 'test' });
  const moved = await store.commit(task.id, (cur) => ({ task: cur.task, body: cur.body, status: 'ready' }), 'test');
  assert.is(moved.after.status, 'ready');
  assert.is(failures.length, 2);
  assert.match(failures[0]!, /ENOTDIR/);
  repair();
  assert.ok(await store.events.flush());
  assert.equal((await readEvents(root)).map((e) => e.type), ['task.created', 'task.transitioned']);
});

committed('the command line reports success with a warning when the event could not be appended', async () => {
  const root = tempRoot();
  const created = await svc(root, 'task', 'create', 'Warned');
  const id = created.stdout.split('\n')[0]!;
  breakEvents(root);
  const promoted = await svc(root, 'task', 'promote', id);
  assert.is(promoted.code, 0, promoted.stderr);
  assert.is(promoted.stdout.trim(), `${id} backlog -> ready`);
  assert.match(promoted.stderr, /^warning: the change was made, but its event could not be appended to the event log \(ENOTDIR/m);
  assert.match(promoted.stderr, /hint: the event is kept in data\/events-spool\/\S+\.jsonl and appended once data\/events\/ is writable/);
});

committed('a command that cannot append its event spools it; svc events and the next change append it, once', async () => {
  const root = tempRoot();
  const { eventsSpool } = toPaths(root);
  const id = (await svc(root, 'task', 'create', 'Spooled')).stdout.split('\n')[0]!;
  let repair = breakEventsKeeping(root);
  const promoted = await svc(root, 'task', 'promote', id);
  assert.is(promoted.code, 0, promoted.stderr);
  const spooled = readdirSync(eventsSpool);
  assert.is(spooled.length, 1);
  assert.ok(promoted.stderr.includes(`hint: the event is kept in data/events-spool/${spooled[0]} and appended once data/events/ is writable`), promoted.stderr);
  const blocked = await svc(root, 'task', 'block', id, '--reason', 'waiting');
  assert.is(blocked.code, 0, blocked.stderr);
  assert.is(readdirSync(eventsSpool).length, 2, 'a second failed append spools a second file');
  repair();
  const shown = await svc(root, 'events', '--json', '--task', id);
  assert.is(shown.code, 0, shown.stderr);
  const types = shown.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { type: string; payload: { to?: string } }));
  assert.equal(types.map((e) => [e.type, e.payload.to]), [['task.created', undefined], ['task.transitioned', 'ready'], ['task.transitioned', 'blocked'], ['task.blocked', undefined]]);
  assert.equal(readdirSync(eventsSpool), [], 'the spool is emptied');
  repair = breakEventsKeeping(root);
  await svc(root, 'task', 'unblock', id);
  repair();
  await svc(root, 'task', 'status', id, 'backlog');
  assert.equal((await readEvents(root, { taskId: id })).map((e) => e.payload.to ?? e.type), ['task.created', 'ready', 'blocked', 'task.blocked', 'backlog', 'ready', 'task.unblocked'], 'the next change appends the spool after its own event');
});

committed('a command whose event can be neither appended nor spooled says so and still succeeds', async () => {
  const root = tempRoot();
  const id = (await svc(root, 'task', 'create', 'Lost')).stdout.split('\n')[0]!;
  breakEvents(root);
  writeFileSync(toPaths(root).eventsSpool, 'not a directory\n');
  const promoted = await svc(root, 'task', 'promote', id);
  assert.is(promoted.code, 0, promoted.stderr);
  assert.match(promoted.stderr, /hint: it could not be kept in data\/events-spool\/ either, so svc events will not show this change; check that data\/ is writable/);
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
  const json = JSON.parse((await svc(root, 'doctor', '--json')).stdout) as { ok: boolean; problems: number; eventSpool: { files: number } };
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
  assert.equal((await readEvents(root, { taskId: id })).map((e) => e.payload.to ?? e.type), ['task.created', 'ready']);
  assert.is((await svc(root, 'doctor')).code, 0);
});

const merge = suite('store.mergeEventSpool');
merge.after.each(cleanRoots);

const line = (type: string, timestamp: string) => `${JSON.stringify({ timestamp, type, actor: 't', payload: {} })}\n`;

merge('appends spooled lines to the day file of each timestamp, oldest spool file first, and removes the files', async () => {
  const root = tempRoot();
  await spoolEventLines(root, line('a', '2026-11-21T23:59:59.000Z') + line('b', '2026-11-22T00:00:01.000Z'));
  await new Promise((done) => setTimeout(done, 2));
  await spoolEventLines(root, line('c', '2026-11-22T00:00:02.000Z') + 'torn{\n');
  assert.is(await mergeEventSpool(root), 3);
  assert.equal((await readEvents(root)).map((e) => [e.type, e.timestamp.slice(0, 10)]), [['a', '2026-11-21'], ['b', '2026-11-22'], ['c', '2026-11-22']]);
  assert.equal(readdirSync(toPaths(root).eventsSpool), []);
  assert.is(await mergeEventSpool(root), 0, 'nothing left to merge');
});

merge('never appends a line twice when a merge was cut off after its append', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  mkdirSync(paths.events, { recursive: true });
  writeFileSync(paths.eventFile('2026-11-21'), line('a', '2026-11-21T10:00:00.000Z'));
  await spoolEventLines(root, line('a', '2026-11-21T10:00:00.000Z') + line('b', '2026-11-21T10:00:01.000Z'));
  assert.is(await mergeEventSpool(root), 1);
  assert.equal((await readEvents(root)).map((e) => e.type), ['a', 'b']);
});

merge('takes over the claim of a dead process and leaves the claim of a live one', async () => {
  const root = tempRoot();
  const dir = toPaths(root).eventsSpool;
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  const claim = async (type: string, pid: number) => {
    const file = await spoolEventLines(root, line(type, '2026-11-21T10:00:00.000Z'));
    renameSync(file, `${file}.${hostname()}-${pid}.merging`);
    return `${file}.${hostname()}-${pid}.merging`;
  };
  await claim('dead', dead);
  const live = await claim('live', process.ppid);
  assert.is(await mergeEventSpool(root), 1);
  assert.equal((await readEvents(root)).map((e) => e.type), ['dead']);
  assert.equal(readdirSync(dir), [live.slice(dir.length + 1)], 'the live claim is left to its owner');
});

merge('a merge that fails puts the spool file back and throws', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  const file = await spoolEventLines(root, line('a', '2026-11-21T10:00:00.000Z'));
  writeFileSync(paths.events, 'not a directory\n');
  await mergeEventSpool(root).then(() => assert.unreachable('should fail'), (err: Error) => assert.match(err.message, /ENOTDIR/));
  assert.ok(existsSync(file), 'back under its own name');
  assert.is(readFileSync(file, 'utf8'), line('a', '2026-11-21T10:00:00.000Z'));
  rmSync(paths.events);
  assert.is(await mergeEventSpool(root), 1);
  assert.equal(readdirSync(paths.eventsSpool), []);
  assert.ok(!existsSync(join(paths.eventsSpool, 'x')));
});

const read = suite('store.readEvents');
read.after.each(cleanRoots);

read('reads back lines of types the event map does not declare (a log of an older svc, or written by hand)', async () => {
  const root = tempRoot();
  const { events } = toPaths(root);
  mkdirSync(events, { recursive: true });
  const lines = [
    { timestamp: '2026-11-21T10:00:00.000Z', type: 'task.renamed', taskId: 'TASK-2026-11-21-001', actor: 'svc-0.1', payload: { was: 'x' } },
    { timestamp: '2026-11-21T10:00:01.000Z', type: 'plugin.session-start', actor: 'plugin', payload: {} },
  ];
  writeFileSync(join(events, '2026-11-21.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  assert.equal(await readEvents(root), lines);
  assert.equal(await readEvents(root, { type: 'task.renamed' }), [lines[0]]);
});

log.run();
committed.run();
merge.run();
read.run();
