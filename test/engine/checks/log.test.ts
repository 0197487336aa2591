import { readFileSync, statSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openCheckLog } from '../../../lib/engine/checks/log.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { listRunLogs } from '../../../lib/store/records/run-logs.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const header = {
  taskId: 'TASK-2026-11-21-001',
  check: 'test',
  session: 's1',
  startedAt: new Date('2026-11-21T10:00:00.000Z'),
};
const at = new Date('2026-11-21T10:00:05.000Z');
const logs = suite('engine.openCheckLog');
logs.after.each(cleanRoots);

logs(
  'each check run gets the next number and the run-log header; the end line closes it; svc task logs lists it as a check',
  async () => {
    const paths = toPaths(tempRoot());
    const first = openCheckLog(paths, header);
    first.write(Buffer.from('line one\n'));
    first.close('exit code 1', at);
    const second = openCheckLog(paths, header);
    second.close('exit code 0', at);
    const other = openCheckLog(paths, { ...header, check: 'lint' });
    other.close('exit code 0', at);
    const dir = paths.runLogDir(header.taskId);
    assert.is(first.path, `${dir}/check-test-1.log`);
    assert.is(second.path, `${dir}/check-test-2.log`);
    assert.is(other.path, `${dir}/check-lint-1.log`);
    const lines = readFileSync(first.path, 'utf8').split('\n');
    assert.match(
      lines[0]!,
      /svc run: task TASK-2026-11-21-001, check test, session s1, started 2026-11-21T10:00:00.000Z/,
    );
    assert.is(lines[1], 'line one');
    assert.match(lines[2]!, /svc run ended: exit code 1 at 2026-11-21T10:00:05.000Z/);
    const listed = await listRunLogs(paths, header.taskId);
    assert.equal(
      listed.map((entry) => `${entry.kind} ${entry.name} ${entry.file} ${entry.ended ? 'ended' : 'open'}`).sort(),
      ['check lint check-lint-1.log ended', 'check test check-test-1.log ended', 'check test check-test-2.log ended'],
    );
  },
);

logs('past its cap the log keeps its header and the tail of the output; tail() gives the last bytes', () => {
  const paths = toPaths(tempRoot());
  const log = openCheckLog(paths, header, 1000);
  for (let i = 0; i < 100; i++) log.write(Buffer.from(`${String(i).padStart(3, '0')} ${'x'.repeat(45)}\n`));
  log.close('exit code 0', at);
  const text = readFileSync(log.path, 'utf8');
  assert.ok(statSync(log.path).size <= 1000, `size ${statSync(log.path).size}`);
  assert.match(text.split('\n')[0]!, /svc run: task TASK-2026-11-21-001, check test/);
  assert.match(text, /earlier output dropped/);
  assert.not.match(text, /^000 /m);
  assert.match(text, new RegExp(`099 ${'x'.repeat(45)}\\n.*svc run ended: exit code 0`));
  assert.is(log.tail(50), `099 ${'x'.repeat(45)}\n`);
});

logs.run();
