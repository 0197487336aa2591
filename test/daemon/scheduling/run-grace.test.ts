import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRunGrace, type Finishing } from '../../../lib/daemon/scheduling/run-grace.js';
import { within } from '../../helpers/root.js';

const grace = suite('daemon.createRunGrace');

grace('every run of a task is spared while a call that may hand it on runs; settled with no session, none is', () => {
  const runs = createRunGrace({ graceMs: () => 60_000, onOverdue: () => assert.unreachable('no grace was given') });
  const settle = runs.begin('t1');
  assert.ok(runs.spares('t1', 's1'));
  assert.not.ok(runs.spares('t2', 's2'), 'another task is not');
  assert.is(settle(null), null);
  assert.not.ok(runs.spares('t1', 's1'));
  runs.close();
});

grace('the run that handed its task on is spared until its grace period ends, then reported overdue once', async () => {
  let now = 1000;
  const overdue: Finishing[] = [];
  const runs = createRunGrace({ graceMs: () => 50, onOverdue: (finishing) => overdue.push(finishing), now: () => now });
  const finishing = runs.begin('t1')('s1');
  assert.equal(finishing, { taskId: 't1', sessionId: 's1', until: 1050 });
  assert.ok(runs.spares('t1', 's1'));
  assert.not.ok(runs.spares('t1', 's0'), 'another run of the task is not');
  now = 1050;
  assert.not.ok(runs.spares('t1', 's1'), 'not past its grace period');
  await within(2000, () => overdue.length === 1, 'the overdue report');
  assert.equal(overdue, [{ taskId: 't1', sessionId: 's1', until: 1050 }]);
  assert.is(runs.of('s1'), undefined);
  runs.close();
});

grace('a run gone within its grace period is forgotten and never reported; a settle counts once', async () => {
  const overdue: Finishing[] = [];
  const runs = createRunGrace({ graceMs: () => 30, onOverdue: (finishing) => overdue.push(finishing) });
  const settle = runs.begin('t1');
  runs.begin('t1');
  assert.ok(settle('s1'));
  assert.is(settle('s1'), null, 'settled already');
  assert.ok(runs.spares('t1', 'other'), 'a second call still runs');
  runs.forget('s1');
  await new Promise((resolve) => setTimeout(resolve, 80)); // past the grace period: no timer may fire
  assert.equal(overdue, []);
  runs.close();
});

grace.run();
