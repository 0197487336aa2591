import { plan, type PlanContext, type PlanTask, type Snapshot } from '../../lib/engine/plan.js';
import { validateOrg } from '../../lib/org/org-chart.js';

// The set-up of the plan tests (plan.test.ts, plan-routing.test.ts): an org chart, tasks, snapshots, a context.

const NOW = new Date('2026-11-21T10:00:00.000Z');
const org = validateOrg(
  {
    schemaVersion: 1,
    agents: [
      { id: 'dev', name: 'Dev', command: ['true'], capabilities: ['ts'], maxConcurrent: 2 },
      { id: 'dev2', name: 'Dev 2', command: ['true'], capabilities: ['ts', 'db'] },
      { id: 'gw', name: 'Gateway agent' },
      { id: 'off', name: 'Off', active: false, command: ['true'] },
    ],
    teams: [{ id: 'core', name: 'Core', members: ['dev2', 'dev'] }],
    roles: { reviewer: { agents: ['dev2'] } },
  },
  'test org',
);

export function task(id: string, extra: Partial<PlanTask> = {}): PlanTask {
  return {
    id,
    status: 'ready',
    priority: 'normal',
    createdAt: `2026-11-21T09:00:0${id.slice(-1)}.000Z`,
    routing: { agent: 'dev' },
    dependsOn: [],
    ...extra,
  };
}

export function snap(ready: PlanTask[], inProgress: PlanTask[] = [], done: string[] = []): Snapshot {
  const status = new Map<string, string>([
    ...ready.map((t) => [t.id, 'ready'] as const),
    ...inProgress.map((t) => [t.id, 'in-progress'] as const),
    ...done.map((id) => [id, 'done'] as const),
  ]);
  return { ready, inProgress, statusOf: (id) => status.get(id) as never };
}

export const ctx = (extra: Partial<PlanContext> = {}): PlanContext => ({
  org,
  maxConcurrentDispatches: 3,
  now: NOW,
  mode: 'standalone',
  pluginAttached: false,
  gatewayConfigured: true,
  ...extra,
});
export const brief = (actions: ReturnType<typeof plan>) =>
  actions.map((a) =>
    a.kind === 'dispatch'
      ? `${a.taskId}>${a.agent}:${a.adapter}`
      : a.kind === 'hold'
        ? `${a.taskId}:${a.reason}`
        : `${a.taskId}:${a.kind}`,
  );
