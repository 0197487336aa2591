import { appendFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendEvents, type SvcEvent } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { svc } from '../helpers/cli.js';
import { HEAVY, runRecordingLoads } from '../helpers/loaded.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';
import { seed } from './events-seed.js';

// svc events --follow: events-follow.test.ts.
const print = suite('cli.events');
print.after.each(cleanRoots);

print('prints one readable line per event, oldest day first: time, type, task, actor, payload', async () => {
  const root = tempRoot();
  await seed(root);
  const res = await svc(root, 'events');
  assert.is(res.code, 0, res.stderr);
  assert.is(res.stderr, '');
  const lines = res.stdout.trimEnd().split('\n');
  assert.is(lines.length, 4);
  assert.is(
    lines[0],
    '2026-11-21T09:00:00.000Z  task.created        TASK-2026-11-21-001  cli  title="Fix the login bug" status=backlog priority=high',
  );
  assert.is(
    lines[2],
    '2026-11-22T10:30:00.000Z  task.transitioned   TASK-2026-11-21-001  scheduler  from=ready to=in-progress',
  );
  assert.is(
    lines[3],
    '2026-11-22T10:30:00.000Z  daemon.started      -                    system  pid=4242 version=0.1.0',
  );
});

print('filters by --type (exact or a prefix*), --task (id or prefix) and --since (time or duration)', async () => {
  const root = tempRoot();
  await seed(root);
  const types = async (...argv: string[]) =>
    (await svc(root, 'events', '--json', ...argv)).stdout
      .trimEnd()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as SvcEvent).type);
  assert.equal(await types('--type', 'task.created'), ['task.created', 'task.created']);
  assert.equal(await types('--type', 'task.*'), ['task.created', 'task.created', 'task.transitioned']);
  assert.equal(await types('--task', '2026-11-21-001'), ['task.created', 'task.transitioned']);
  assert.equal(await types('--task', 'TASK-2026-11-21-002'), ['task.created']);
  assert.equal(await types('--since', '2026-11-22'), ['task.transitioned', 'daemon.started']);
  assert.equal(await types('--since', '2026-11-21T09:00:00.001Z'), ['task.transitioned', 'daemon.started']);
  assert.equal(await types('--since', '1h'), [], 'the seeded events are older than an hour');
  await appendEvents(root, new Date(), [
    { type: 'task.updated', taskId: 'TASK-2026-11-21-002', actor: 'cli', payload: { fields: ['body'] } },
  ]);
  assert.equal(await types('--since', '1h', '--task', '2026-11-21-002'), ['task.updated']);
});

print('--json prints each event as one JSON object a line, exactly as written', async () => {
  const root = tempRoot();
  await seed(root);
  const res = await svc(root, 'events', '--json');
  const events = res.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as SvcEvent);
  assert.equal(events[3], {
    timestamp: '2026-11-22T10:30:00.000Z',
    type: 'daemon.started',
    actor: 'system',
    payload: { pid: 4242, version: '0.1.0' },
  });
  assert.is(events.length, 4);
});

print(
  'a torn last line (an append in progress) is skipped quietly; a broken line inside is reported and skipped',
  async () => {
    const root = tempRoot();
    await seed(root);
    const file = toPaths(root).eventFile('2026-11-22');
    appendFileSync(file, 'not an event\n{"timestamp":"2026-11-22T11:00:00.000Z","type":"task.upd');
    const res = await svc(root, 'events');
    assert.is(res.code, 0);
    assert.is(res.stdout.trimEnd().split('\n').length, 4);
    assert.is(res.stderr, `warning: ${file}:3 is not a JSON event; skipped\n`);
  },
);

print('no event log prints nothing; a --since that is not a time is a validation error with a hint', async () => {
  const root = tempRoot();
  assert.equal(await svc(root, 'events'), { code: 0, stdout: '', stderr: '' });
  const bad = await svc(root, 'events', '--since', 'yesterday');
  assert.is(bad.code, 1);
  assert.match(bad.stderr, 'svc: --since must be a time or a duration back from now (found "yesterday").');
  assert.match(bad.stderr, /hint: Pass a date or time such as 2026-11-23/);
  const json = await svc(root, 'events', '--since', 'soon', '--json');
  assert.is((JSON.parse(json.stderr) as { error: { code: string } }).error.code, 'validation_error');
});

print('loads no store, schema or YAML code (a light command)', async () => {
  const root = tempRoot();
  await seed(root);
  const run = await runRecordingLoads(root, ['events']);
  assert.is(run.stdout.trimEnd().split('\n').length, 4, run.stderr);
  assert.ok(run.sources.includes('dist/cli/events.js'), 'the hook saw the command load');
  for (const heavy of HEAVY)
    assert.not.ok(
      run.sources.some((source) => source.includes(heavy)),
      `svc events loaded ${heavy}`,
    );
});

print.run();
