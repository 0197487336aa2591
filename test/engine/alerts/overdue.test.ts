import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatOverdueAlert, isOverdue, type DueTask } from '../../../lib/engine/alerts/overdue.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const task = (extra: Partial<DueTask> = {}): DueTask => ({
  id: 'T-1',
  title: 'Ship it',
  status: 'in-progress',
  dueAt: '2026-11-21T09:48:00.000Z',
  agent: 'dev',
  ...extra,
});

const overdue = suite('engine.isOverdue and formatOverdueAlert');

overdue('an open task is overdue at and after its dueAt; done and cancelled ones never', () => {
  const cases: [string, Partial<DueTask>, boolean][] = [
    ['passed, in progress', {}, true],
    ['exactly now', { dueAt: NOW.toISOString() }, true],
    ['ahead', { dueAt: '2026-11-21T10:00:01.000Z' }, false],
    ['passed, backlog', { status: 'backlog' }, true],
    ['passed, blocked', { status: 'blocked' }, true],
    ['passed, deadletter', { status: 'deadletter' }, true],
    ['passed, done', { status: 'done' }, false],
    ['passed, cancelled', { status: 'cancelled' }, false],
  ];
  for (const [name, extra, expected] of cases) assert.is(isOverdue(task(extra), NOW), expected, name);
});

overdue(
  'the alert names the task, the due time, how late in the unit that fits, the status and the agent; control characters escaped',
  () => {
    const text = formatOverdueAlert(task({ title: 'Ship \x1b[2Jit' }), NOW);
    assert.match(
      text,
      /^\[AOF\] OVERDUE: T-1 "Ship \\x1b\[2Jit"\n\[AOF\] OVERDUE: {3}was due at 2026-11-21T09:48:00.000Z \(12 min ago\), status in-progress, agent: dev\n\[AOF\] OVERDUE: {3}action: `svc task show T-1`; raise its priority \(`svc task edit T-1 --priority high`\) or set a later due time \(`svc task edit T-1 --due 2d`\)/,
    );
    const late = (dueAt: string) => /\((.*) ago\)/.exec(formatOverdueAlert(task({ dueAt }), NOW))![1];
    assert.equal(['2026-11-21T09:59:15.000Z', '2026-11-21T06:30:00.000Z', '2026-11-18T10:00:00.000Z'].map(late), [
      '45 s',
      '3.5 h',
      '3.0 d',
    ]);
    assert.match(formatOverdueAlert(task({ agent: undefined }), NOW), /agent: unassigned/);
  },
);

overdue.run();
