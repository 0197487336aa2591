import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendEvents, type SvcEvent } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { seed } from './events-seed.js';

// The --follow tests run the built bin/svc.js and dist/ (run `npm run build` first).
const bin = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

const follow = suite('cli.events --follow');
const followers: ChildProcess[] = [];
follow.after.each(async () => {
  for (const child of followers.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('close', resolve));
    }
  }
  cleanRoots();
});

follow('shows an event written by another process within a second', async () => {
  const root = tempRoot();
  await seed(root);
  const out = startFollower(root, ['--json']);
  await within(10_000, () => out().includes('"daemon.started"'), 'the history printed');
  const writer = spawn(process.execPath, [
    '--input-type=module',
    '-e',
    [
      `import { appendEvents } from ${JSON.stringify(`${dist}store/events/log.js`)};`,
      `await appendEvents(${JSON.stringify(root)}, new Date(), [{ type: 'task.completed', taskId: 'TASK-2026-11-23-009', actor: 'writer', payload: { pid: process.pid } }]);`,
      `process.stdout.write('written\\n');`,
    ].join('\n'),
  ]);
  const written = await collect(writer);
  assert.is(written.stdout, 'written\n', written.stderr);
  await within(1000, () => out().includes('"TASK-2026-11-23-009"'), 'the new event on the follower');
  const last = JSON.parse(out().trimEnd().split('\n').pop()!) as SvcEvent;
  assert.equal([last.type, last.actor], ['task.completed', 'writer']);
});

follow(
  'crosses the UTC day boundary (a new day file appears), reads a late line of the day before, and waits out a torn line',
  async () => {
    const root = tempRoot();
    await seed(root);
    const out = startFollower(root, ['--type', 'task.*']);
    await within(10_000, () => out().includes('task.transitioned'), 'the history printed');
    await appendEvents(root, new Date('2026-11-23T00:00:00.500Z'), [
      { type: 'task.created', taskId: 'TASK-2026-11-23-001', actor: 'cli', payload: { title: 'A new day' } },
    ]);
    await within(5000, () => out().includes('TASK-2026-11-23-001'), 'the event of the new day file');
    await appendEvents(root, new Date('2026-11-22T23:59:59.999Z'), [
      { type: 'task.blocked', taskId: 'TASK-2026-11-21-002', actor: 'cli', payload: {} },
    ]);
    await within(5000, () => out().includes('task.blocked'), 'a late line in the file of the day before');
    const file = toPaths(root).eventFile('2026-11-23');
    const line = JSON.stringify({
      timestamp: '2026-11-23T00:01:00.000Z',
      type: 'task.cancelled',
      taskId: 'TASK-2026-11-23-001',
      actor: 'cli',
      payload: { reason: 'torn then whole' },
    });
    appendFileSync(file, line.slice(0, 40));
    // two later reads of the log (each marker shows in its own read) have met the torn line
    for (const marker of ['TASK-2026-11-22-101', 'TASK-2026-11-22-102']) {
      await appendEvents(root, new Date('2026-11-22T23:59:59.999Z'), [
        { type: 'task.unblocked', taskId: marker, actor: 'cli', payload: {} },
      ]);
      await within(5000, () => out().includes(marker), marker);
    }
    const before = out();
    appendFileSync(file, `${line.slice(40)}\n`);
    await within(5000, () => out().includes('task.cancelled'), 'the torn line once complete');
    assert.not.match(before, 'task.cancelled');
    assert.match(out(), 'reason="torn then whole"');
    assert.not.match(out(), 'daemon.started', '--type applies while following');
    assert.is(followers[0]!.exitCode, null, 'still following');
  },
);

follow(
  'prints only the last 20 events of the log before the new ones; --tail sets how many, with or without --follow',
  async () => {
    const root = tempRoot();
    const many = Array.from({ length: 30 }, (_, i) => ({
      type: 'task.updated',
      taskId: `TASK-2026-11-21-${String(i + 1).padStart(3, '0')}`,
      actor: 'cli',
      payload: {},
    }));
    await appendEvents(root, new Date('2026-11-21T09:00:00.000Z'), many);
    const out = startFollower(root, []);
    await within(10_000, () => out().includes('TASK-2026-11-21-030'), 'the last event of the history');
    await appendEvents(root, new Date(), [
      { type: 'task.completed', taskId: 'TASK-2026-11-21-031', actor: 'cli', payload: {} },
    ]);
    await within(5000, () => out().includes('TASK-2026-11-21-031'), 'the new event');
    const ids = out()
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/\s+/)[2]);
    assert.equal(
      ids,
      many
        .slice(10)
        .map((event) => event.taskId)
        .concat('TASK-2026-11-21-031'),
    );
    const three = await svc(root, 'events', '--tail', '3', '--type', 'task.updated');
    assert.equal(
      three.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split(/\s+/)[2]),
      ['TASK-2026-11-21-028', 'TASK-2026-11-21-029', 'TASK-2026-11-21-030'],
    );
    assert.is((await svc(root, 'events')).stdout.trimEnd().split('\n').length, 31, 'without --follow, all of it');
    const bad = await svc(root, 'events', '--tail', 'some');
    assert.equal([bad.code, bad.stdout], [2, '']);
    assert.match(bad.stderr, /--tail takes a count of events or "all"/);
  },
);

follow.run();

// --- internal ---

function startFollower(root: string, extra: string[]): () => string {
  mkdirSync(toPaths(root).events, { recursive: true });
  const child = spawn(process.execPath, [bin, 'events', '--follow', ...extra], {
    env: { ...process.env, SVC_HOME: root },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  followers.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  return () => output;
}

function collect(child: ChildProcess): Promise<{ stdout: string; stderr: string; code: number | null }> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ stdout, stderr, code })));
}
