import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cursorAtEnd, cursorFile, loadCursor, saveCursor } from '../../../lib/daemon/notify/cursor.js';
import { readPastCursor } from '../../../lib/daemon/notify/feed.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const test = suite('daemon.notify readPastCursor');
test.after.each(cleanRoots);

const line = (type: string, taskId = 'TASK-2026-11-29-001') =>
  `${JSON.stringify({ timestamp: '2026-11-29T10:00:00.000Z', type, taskId, actor: 'system', payload: {} })}\n`;

function setUp() {
  const paths = toPaths(tempRoot());
  mkdirSync(paths.events, { recursive: true });
  return { paths, day: (d: string) => join(paths.events, `${d}.jsonl`) };
}

test('reads the complete lines past the cursor, each with an id of its day and offset, never a line in progress', async () => {
  const { paths, day } = setUp();
  writeFileSync(day('2026-11-29'), line('task.created') + line('task.deadletter') + '{"timestamp":"2026-11-29T1');
  const first = line('task.created').length;
  const read = await readPastCursor(paths, { days: { '2026-11-29': first } });
  assert.equal(
    read.events.map((e) => [e.id, e.event.type, e.end]),
    [[`2026-11-29:${first}`, 'task.deadletter', first + line('task.deadletter').length]],
  );
  assert.is(read.ends['2026-11-29'], first + line('task.deadletter').length, 'the partial line is not passed');
});

test('a newer day is read from its start, and the day before the cursor’s days is not read', async () => {
  const { paths, day } = setUp();
  writeFileSync(day('2026-11-27'), line('task.created'));
  writeFileSync(day('2026-11-28'), line('gate.awaiting'));
  writeFileSync(day('2026-11-29'), line('sla.violation'));
  const end28 = statSync(day('2026-11-28')).size;
  appendFileSync(day('2026-11-28'), line('task.deadletter')); // appended after midnight by a slower process
  const read = await readPastCursor(paths, { days: { '2026-11-28': end28 } });
  assert.equal(
    read.events.map((e) => e.event.type),
    ['task.deadletter', 'sla.violation'],
  );
  assert.equal(
    read.events.map((e) => e.id),
    [`2026-11-28:${end28}`, '2026-11-29:0'],
  );
});

test('a line that is not an event is passed over', async () => {
  const { paths, day } = setUp();
  writeFileSync(day('2026-11-29'), `not json\n${line('task.completed')}`);
  const read = await readPastCursor(paths, { days: { '2026-11-29': 0 } });
  assert.equal(
    read.events.map((e) => [e.id, e.event.type]),
    [['2026-11-29:9', 'task.completed']],
  );
  assert.is(read.ends['2026-11-29'], statSync(day('2026-11-29')).size);
});

const cursors = suite('daemon.notify cursor');
cursors.after.each(cleanRoots);

cursors('a first start has no cursor; the cursor at the end names the sizes of the last two day files', async () => {
  const { paths, day } = setUp();
  assert.is(await loadCursor(paths), null);
  writeFileSync(day('2026-11-27'), line('task.created'));
  writeFileSync(day('2026-11-28'), line('task.created') + line('task.created'));
  writeFileSync(day('2026-11-29'), line('task.created'));
  const end = await cursorAtEnd(paths);
  assert.equal(end, {
    days: { '2026-11-28': 2 * line('task.created').length, '2026-11-29': line('task.created').length },
  });
  assert.equal((await readPastCursor(paths, end)).events, [], 'nothing of the history is read');
});

cursors('is saved durably in data/outbox/cursor.json and read back; a damaged file counts as none', async () => {
  const { paths } = setUp();
  await saveCursor(paths, { days: { '2026-11-27': 5, '2026-11-28': 10, '2026-11-29': 20 } });
  assert.equal(await loadCursor(paths), { days: { '2026-11-28': 10, '2026-11-29': 20 } }, 'the last two days kept');
  assert.match(readFileSync(cursorFile(paths), 'utf8'), '"2026-11-29":20');
  writeFileSync(cursorFile(paths), '{"days": ');
  assert.is(await loadCursor(paths), null);
});

test.run();
cursors.run();
