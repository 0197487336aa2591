import { existsSync, readdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toFutureTime } from '../../../lib/core/time/schedule.js';
import { readEvents } from '../../../lib/store/events/log.js';
import { svc } from '../../helpers/cli.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';
import { rejects, setup, snapshot } from '../../tools/helpers.js';

const HOUR = 3_600_000;
const tasksOf = (root: string) =>
  existsSync(`${root}/tasks/backlog`) ? readdirSync(`${root}/tasks/backlog`).filter((n) => n.endsWith('.md')) : [];

const create = suite('cli.task create --not-before --due');
create.after.each(cleanRoots);

create('durations and dates become ISO times in the frontmatter, shown by show and list', async () => {
  const root = tempRoot();
  const before = Date.now();
  const out = await svc(root, 'task', 'create', 'Later', '--not-before', '2h', '--due', '2099-03-01', '--json');
  assert.is(out.code, 0, out.stderr);
  const row = JSON.parse(out.stdout) as { id: string; notBefore: string; dueAt: string };
  assert.ok(Math.abs(Date.parse(row.notBefore) - (before + 2 * HOUR)) < 10_000, row.notBefore);
  assert.is(row.dueAt, '2099-03-01T00:00:00.000Z');
  const shown = await svc(root, 'task', 'show', row.id);
  assert.match(shown.stdout, new RegExp(`\\nnotBefore: ${row.notBefore}\\ndueAt: 2099-03-01T00:00:00.000Z\\n`));
  const json = JSON.parse((await svc(root, 'task', 'show', row.id, '--json')).stdout) as Record<string, unknown>;
  assert.equal([json.notBefore, json.dueAt], [row.notBefore, '2099-03-01T00:00:00.000Z']);
  assert.match(
    (await svc(root, 'task', 'list')).stdout,
    new RegExp(`Later \\[not before ${row.notBefore}\\] \\[due 2099-03-01T00:00:00.000Z\\]`),
  );
  const listed = JSON.parse((await svc(root, 'task', 'list', '--json')).stdout) as {
    notBefore?: string;
    dueAt?: string;
  }[];
  assert.equal([listed[0]?.notBefore, listed[0]?.dueAt], [row.notBefore, '2099-03-01T00:00:00.000Z']);
});

create('a time in the past or that is no time is refused with what was found, and nothing is created', async () => {
  const root = tempRoot();
  assert.is((await svc(root, 'task', 'create', 'Exists')).code, 0);
  const cases: [string[], RegExp][] = [
    [['--not-before', '2020-01-01'], /--not-before 2020-01-01 \(2020-01-01T00:00:00.000Z\) is in the past \(now is /],
    [['--due', '2021-05-01T09:00:00Z'], /--due 2021-05-01T09:00:00Z \(2021-05-01T09:00:00.000Z\) is in the past/],
    [['--due', '0h'], /--due "0h" is a duration of zero/],
    [['--not-before', 'tomorrow'], /--not-before must be a duration or a time \(found "tomorrow"\)/],
    [['--due', '2099-03-01T09:00'], /--due must be a duration or a time/],
  ];
  for (const [flags, message] of cases) {
    const out = await svc(root, 'task', 'create', 'Never', ...flags);
    assert.is(out.code, 1, flags.join(' '));
    assert.match(out.stderr, message);
    assert.match(out.stderr, /hint: Pass /);
  }
  assert.is(tasksOf(root).length, 1);
  assert.equal(
    (await readEvents(root)).map((e) => e.type),
    ['task.created'],
  );
});

create('toFutureTime counts durations from now in s, m, h, d and w', () => {
  const now = new Date('2026-11-21T10:00:00.000Z');
  const cases: [string, string][] = [
    ['45s', '2026-11-21T10:00:45.000Z'],
    ['30m', '2026-11-21T10:30:00.000Z'],
    ['1.5h', '2026-11-21T11:30:00.000Z'],
    ['2d', '2026-11-23T10:00:00.000Z'],
    ['1w', '2026-11-28T10:00:00.000Z'],
    ['2026-11-21T11:00:00+01:00', '2026-11-21T10:00:00.000Z'],
  ];
  for (const [value, expected] of cases.slice(0, 5)) assert.is(toFutureTime(value, now, '--due'), expected, value);
  assert.throws(
    () => toFutureTime(cases[5]![0], now, '--due'),
    /is in the past/,
    'the same instant as now is not in the future',
  );
});

const tools = suite('tools notBefore and dueAt');
tools.after.each(cleanRoots);

tools('svc_dispatch and svc_task_edit take them as optional ISO times in the future', async () => {
  const { call, store, root } = setup();
  const later = '2026-11-21T12:00:00.000Z';
  const { taskId } = await call<{ taskId: string }>('svc_dispatch', {
    title: 'Timed',
    brief: 'b',
    agent: 'dev',
    notBefore: later,
    dueAt: '2026-11-22T10:00:00Z',
  });
  const stored = await store.get(taskId);
  assert.equal([stored.task.notBefore, stored.task.dueAt], [later, '2026-11-22T10:00:00.000Z']);
  const edited = await call<{ updatedFields: string[] }>('svc_task_edit', {
    taskId,
    dueAt: '2026-11-23T10:00:00.000Z',
  });
  assert.equal(edited.updatedFields, ['dueAt']);
  const files = snapshot(root);
  await rejects(
    call('svc_dispatch', { title: 'Late', brief: 'b', agent: 'dev', dueAt: '2026-11-21T09:00:00.000Z' }),
    'validation_error',
    'dueAt 2026-11-21T09:00:00.000Z is in the past',
  );
  await rejects(
    call('svc_task_edit', { taskId, notBefore: '2026-11-20T10:00:00.000Z' }),
    'validation_error',
    'notBefore 2026-11-20T10:00:00.000Z is in the past',
  );
  await rejects(call('svc_dispatch', { title: 'Bad', brief: 'b', notBefore: 'soon' }), 'validation_error', 'notBefore');
  assert.equal(snapshot(root), files, 'a refused call changes nothing');
});

create.run();
tools.run();
