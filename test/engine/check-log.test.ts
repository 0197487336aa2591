import { readFileSync, statSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openRunLog } from '../../lib/engine/check-log.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const header = { taskId: 'TASK-2026-11-21-001', what: 'check test', session: 's1', startedAt: '2026-11-21T10:00:00.000Z' };
const logs = suite('engine.openRunLog');
logs.after.each(cleanRoots);

logs('each run gets the next number, a header line naming task, check, session and start, then the output', () => {
  const dir = tempRoot();
  const first = openRunLog(dir, 'check-test', header);
  first.write(Buffer.from('line one\n'));
  first.close();
  const second = openRunLog(dir, 'check-test', header);
  second.close();
  const other = openRunLog(dir, 'check-lint', header);
  other.close();
  assert.is(first.path, `${dir}/TASK-2026-11-21-001/check-test-1.log`);
  assert.is(second.path, `${dir}/TASK-2026-11-21-001/check-test-2.log`);
  assert.is(other.path, `${dir}/TASK-2026-11-21-001/check-lint-1.log`);
  assert.is(readFileSync(first.path, 'utf8'), '# task TASK-2026-11-21-001 check test session s1 started 2026-11-21T10:00:00.000Z\nline one\n');
});

logs('past its cap the log keeps its header and the tail of the output; tail() gives the last bytes', () => {
  const dir = tempRoot();
  const log = openRunLog(dir, 'check-test', header, 1000);
  for (let i = 0; i < 100; i++) log.write(Buffer.from(`${String(i).padStart(3, '0')} ${'x'.repeat(45)}\n`));
  log.close();
  const text = readFileSync(log.path, 'utf8');
  assert.ok(statSync(log.path).size < 2200, `size ${statSync(log.path).size}`);
  assert.ok(text.startsWith('# task TASK-2026-11-21-001 check test'));
  assert.match(text, /\[\.\.\. earlier output cut/);
  assert.not.match(text, /^000 /m);
  assert.ok(text.endsWith(`099 ${'x'.repeat(45)}\n`));
  assert.is(log.tail(50), `099 ${'x'.repeat(45)}\n`);
});

logs.run();
