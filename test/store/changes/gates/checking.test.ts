import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Task } from '../../../../lib/core/task.js';
import { toDueChecks } from '../../../../lib/store/changes/gates/checking.js';
import type { GateFlow } from '../../../../lib/store/changes/gates/complete.js';

const flow: GateFlow = {
  name: 'ship',
  gates: [
    { id: 'implement', role: 'dev' },
    { id: 'review', role: 'rev', verify: ['test', 'lint'] },
  ],
};

function task(routing: Task['routing'], gate?: string): Task {
  return {
    schemaVersion: 1,
    id: 'TASK-2026-11-21-001',
    project: 'default',
    title: 'T',
    status: 'in-progress',
    priority: 'normal',
    routing,
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    lastTransitionAt: '2026-11-21T10:00:00.000Z',
    createdBy: 'test',
    dependsOn: [],
    metadata: {},
    ...(gate ? { gate: { workflow: 'ship', current: gate, history: [] } } : {}),
  };
}

const due = suite('store.toDueChecks');

due(
  "only a complete outcome is checked: the gate's verify, and routing.verify when the completion makes the task done",
  () => {
    const cases: [string, Task, Parameters<typeof toDueChecks>[1], GateFlow | null, string[]][] = [
      ['plain task, no outcome', task({ agent: 'dev', verify: ['test'] }), { actor: 'dev' }, null, ['test']],
      [
        'plain task, needs_review',
        task({ agent: 'dev', verify: ['test'] }),
        { actor: 'dev', outcome: 'needs_review' },
        null,
        [],
      ],
      ['plain task without verify', task({ agent: 'dev' }), { actor: 'dev' }, null, []],
      [
        'first gate, no verify there',
        task({ workflow: 'ship', verify: ['e2e'] }, 'implement'),
        { actor: 'dev', outcome: 'complete' },
        flow,
        [],
      ],
      [
        "last gate: its verify, then the task's",
        task({ workflow: 'ship', verify: ['e2e', 'test'] }, 'review'),
        { actor: 'rev', outcome: 'complete' },
        flow,
        ['test', 'lint', 'e2e'],
      ],
      ['last gate, blocked', task({ workflow: 'ship' }, 'review'), { actor: 'rev', outcome: 'blocked' }, flow, []],
      [
        'a caller naming itself svc is checked all the same',
        task({ workflow: 'ship' }, 'review'),
        { actor: 'svc', outcome: 'complete' },
        flow,
        ['test', 'lint'],
      ],
    ];
    for (const [name, t, input, f, expected] of cases) assert.equal(toDueChecks(t, input, f), expected, name);
  },
);

due.run();
