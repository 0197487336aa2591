import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../../lib/store/disk/paths.js';
import {
  endRunLog,
  formatHeader,
  isEndLine,
  listRunLogs,
  openRunLog,
  trimRunLog,
} from '../../../lib/store/records/run-logs.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

const header = (session: string, at: string, kind: 'agent' | 'check' = 'agent', name = 'dev') => ({
  taskId: 'TASK-2026-11-26-001',
  kind,
  name,
  session,
  startedAt: new Date(at),
});

const open = suite('store.openRunLog');
open.after.each(cleanRoots);

open('creates <prefix>-<n>.log with the header line, the next free n for a prefix already used', () => {
  const paths = toPaths(tempRoot());
  const first = openRunLog(paths, 's1', header('s1', '2026-11-26T10:00:00.000Z'));
  const second = openRunLog(paths, 'test', header('s1', '2026-11-26T10:01:00.000Z', 'check', 'test'));
  const third = openRunLog(paths, 'test', header('s1', '2026-11-26T10:02:00.000Z', 'check', 'test'));
  [first, second, third].forEach((log) => closeSync(log.fd));
  const dir = paths.runLogDir('TASK-2026-11-26-001');
  assert.equal([first.path, second.path, third.path], [`${dir}/s1-1.log`, `${dir}/test-1.log`, `${dir}/test-2.log`]);
  assert.is(
    readFileSync(first.path, 'utf8'),
    '=== svc run: task TASK-2026-11-26-001, agent dev, session s1, started 2026-11-26T10:00:00.000Z ===\n',
  );
  assert.is(
    formatHeader(header('s1', '2026-11-26T10:01:00.000Z', 'check', 'test')),
    '=== svc run: task TASK-2026-11-26-001, check test, session s1, started 2026-11-26T10:01:00.000Z ===',
  );
  assert.is(statSync(first.path).mode & 0o777, 0o600);
});

const list = suite('store.listRunLogs');
list.after.each(cleanRoots);

list('lists every run of a task in the order the runs started, with who ran it and how it ended', async () => {
  const paths = toPaths(tempRoot());
  const later = openRunLog(paths, 'b-session', header('b-session', '2026-11-26T10:05:00.000Z'));
  const earlier = openRunLog(paths, 'a-check', header('s0', '2026-11-26T10:00:00.000Z', 'check', 'lint'));
  writeSync(later.fd, 'no newline at the end');
  [later, earlier].forEach((log) => closeSync(log.fd));
  endRunLog(later.path, 'exit code 3', new Date('2026-11-26T10:06:00.000Z'));
  const runs = await listRunLogs(paths, 'TASK-2026-11-26-001');
  assert.equal(
    runs.map((r) => [r.file, r.kind, r.name, r.session, r.startedAt, r.ended]),
    [
      ['a-check-1.log', 'check', 'lint', 's0', '2026-11-26T10:00:00.000Z', null],
      ['b-session-1.log', 'agent', 'dev', 'b-session', '2026-11-26T10:05:00.000Z', 'exit code 3'],
    ],
  );
  const lines = readFileSync(later.path, 'utf8').split('\n');
  assert.is(lines[1], 'no newline at the end');
  assert.ok(isEndLine(lines[2]!));
  assert.equal(await listRunLogs(paths, 'TASK-2026-11-26-999'), []);
});

const trim = suite('store.trimRunLog');
trim.after.each(cleanRoots);

trim('cuts a log past the cap to its header, a note and its tail; a log within the cap is left alone', () => {
  const paths = toPaths(tempRoot());
  const log = openRunLog(paths, 's1', header('s1', '2026-11-26T10:00:00.000Z'));
  for (let i = 1; i <= 2000; i++) writeSync(log.fd, `line ${i}\n`);
  closeSync(log.fd);
  assert.is(trimRunLog(log.path, 1_000_000), false);
  assert.is(trimRunLog(log.path, 1024), true);
  const text = readFileSync(log.path, 'utf8');
  assert.is(Buffer.byteLength(text), 1024);
  const lines = text.split('\n');
  assert.match(lines[0]!, /^=== svc run: task TASK-2026-11-26-001, agent dev, session s1, /);
  assert.match(lines[1]!, /^=== svc: earlier output dropped to keep this log within 1024 bytes ===$/);
  assert.is(lines.at(-2), 'line 2000');
  assert.is(trimRunLog(log.path, 1024), false);
});

trim('a writer appending all along loses nothing written before the cut and keeps writing after it', async () => {
  const paths = toPaths(tempRoot());
  const log = openRunLog(paths, 's1', header('s1', '2026-11-26T10:00:00.000Z'));
  closeSync(log.fd);
  const fd = openSync(log.path, 'a');
  const child = spawn(
    process.execPath,
    [
      '-e',
      'let i = 0; const t = setInterval(() => { console.log("n " + (++i)); if (i === 400) { clearInterval(t); } }, 1);',
    ],
    { stdio: ['ignore', fd, 'ignore'] },
  );
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let cuts = 0;
  await within(
    15_000,
    async () => {
      if (trimRunLog(log.path, 2048)) cuts++;
      return child.exitCode !== null;
    },
    'the writer to finish',
  );
  await exited;
  trimRunLog(log.path, 2048);
  const lines = readFileSync(log.path, 'utf8').trimEnd().split('\n');
  assert.ok(cuts > 0, 'it was cut while written');
  assert.is(lines.at(-1), 'n 400');
  assert.ok(statSync(log.path).size <= 2048);
  writeFileSync(log.path, ''); // an empty log (no header) is cut without one
  assert.is(trimRunLog(log.path, 10), false);
});

open.run();
list.run();
trim.run();
