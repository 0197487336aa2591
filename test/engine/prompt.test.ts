import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Task } from '../../lib/core/task.js';
import { toPrompt } from '../../lib/engine/prompt.js';

const task: Task = {
  schemaVersion: 1,
  id: 'TASK-2026-11-21-001',
  project: 'default',
  title: 'Add the button',
  status: 'in-progress',
  priority: 'normal',
  routing: { agent: 'dev' },
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
  lastTransitionAt: '2026-11-21T10:00:00.000Z',
  createdBy: 'test',
  dependsOn: [],
  metadata: {},
};

const prompt = suite('engine.toPrompt');

prompt('a task with a worktree tells a gateway agent its path and branch', () => {
  const text = toPrompt(
    {
      ...task,
      workspace: {
        name: 'app',
        path: '/w/TASK-2026-11-21-001',
        branch: 'svc/TASK-2026-11-21-001',
        base: 'main',
        host: 'h',
      },
    },
    'Do it.',
    { sessionId: 's1' },
  );
  assert.match(
    text,
    /^Workspace: work in the git worktree \/w\/TASK-2026-11-21-001 on branch svc\/TASK-2026-11-21-001 \(commit your changes there; later gates work in the same worktree\)\.$/m,
  );
});

prompt('a task without a worktree says nothing of one', () => {
  assert.not.match(toPrompt(task, 'Do it.', { sessionId: 's1' }), /Workspace/);
});

prompt.run();
