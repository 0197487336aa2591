import { appendEvents } from '../../lib/store/events/log.js';

// The event log the svc events tests read (test/cli/events*.test.ts).
/** Four events over two days: two created tasks on 2026-11-21, a transition and a daemon start on 2026-11-22. */
export async function seed(root: string): Promise<void> {
  await appendEvents(root, new Date('2026-11-21T09:00:00.000Z'), [
    {
      type: 'task.created',
      taskId: 'TASK-2026-11-21-001',
      actor: 'cli',
      payload: { title: 'Fix the login bug', status: 'backlog', priority: 'high' },
    },
    {
      type: 'task.created',
      taskId: 'TASK-2026-11-21-002',
      actor: 'cli',
      payload: { title: 'Write docs', status: 'backlog', priority: 'normal' },
    },
  ]);
  await appendEvents(root, new Date('2026-11-22T10:30:00.000Z'), [
    {
      type: 'task.transitioned',
      taskId: 'TASK-2026-11-21-001',
      actor: 'scheduler',
      payload: { from: 'ready', to: 'in-progress' },
    },
    { type: 'daemon.started', actor: 'system', payload: { pid: 4242, version: '0.1.0' } },
  ]);
}
