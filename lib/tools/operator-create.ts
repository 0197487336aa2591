import { resolveAnyId } from '../store/listing/archived.js';
import { assertTasksExist } from '../store/changes/deps.js';
import { toListRow, type ListRow } from '../store/listing/task-row.js';
import { notifyCommitted } from './params.js';
import type { ToolContext } from './registry.js';
import { toScheduleTimes } from './schedule-times.js';

/** The parameters of `operator_task_create`. */
export interface CreateParams {
  title: string;
  body?: string | undefined;
  priority?: 'low' | 'normal' | 'high' | 'critical' | undefined;
  agent?: string | undefined;
  team?: string | undefined;
  role?: string | undefined;
  tags?: string[] | undefined;
  workspace?: string | undefined;
  verify?: string[] | undefined;
  dependsOn?: string[] | undefined;
  project?: string | undefined;
  parent?: string | undefined;
  workflow?: string | undefined;
  notBefore?: string | undefined;
  dueAt?: string | undefined;
  /** The task's own budget (`metadata.budget`). */
  budget?: { usd?: number | undefined; tokens?: number | undefined } | undefined;
  actor?: string | undefined;
}

/** Creates a task for the command line (`svc task create`), as `actor`, and returns its row. */
export async function createAsOperator(p: CreateParams & { actor: string }, ctx: ToolContext): Promise<ListRow> {
  const { store } = ctx;
  const gate = p.workflow === undefined ? undefined : await toGate(ctx, p.workflow);
  const routing = Object.fromEntries(
    Object.entries({
      agent: p.agent,
      team: p.team,
      role: p.role,
      tags: p.tags?.length ? p.tags : undefined,
      workflow: gate && p.workflow,
      workspace: p.workspace,
      verify: p.verify?.length ? p.verify : undefined,
    }).filter(([, v]) => v !== undefined),
  );
  if (
    p.agent !== undefined ||
    p.team !== undefined ||
    p.role !== undefined ||
    routing.workspace !== undefined ||
    routing.verify !== undefined
  )
    await assertRoutingKnown(ctx, routing);
  const dependsOn = await assertTasksExist(store, p.dependsOn ?? []);
  const parentId = p.parent === undefined ? undefined : await resolveAnyId(store, p.parent);
  const times = toScheduleTimes(p, store.clock());
  const created = await store.create({
    title: p.title,
    body: p.body,
    priority: p.priority ?? 'normal',
    routing,
    dependsOn,
    project: p.project ?? 'default',
    createdBy: 'cli',
    actor: p.actor,
    ...(parentId ? { parentId } : {}),
    ...(gate ? { gate } : {}),
    ...(p.budget ? { metadata: { budget: p.budget } } : {}),
    ...times,
  });
  await notifyCommitted(ctx, [created.task.id]);
  return toListRow(created);
}

// --- internal ---

/**
 * Refuses an agent, role or team the org chart does not know, as svc_dispatch does (the org modules load only then).
 */
async function assertRoutingKnown(ctx: ToolContext, routing: Record<string, unknown>): Promise<void> {
  const [{ toOrg }, { assertKnownRouting }] = await Promise.all([import('./org.js'), import('../org/routing.js')]);
  assertKnownRouting(routing, await toOrg(ctx));
}

/** The first gate of a workflow (the org chart and workflow modules load only for a gated task). */
async function toGate(ctx: ToolContext, workflow: string) {
  const [{ loadOrg }, { firstGate, loadWorkflow }] = await Promise.all([
    import('../org/org-chart.js'),
    import('../org/workflow.js'),
  ]);
  const org = ctx.org ? await ctx.org() : await loadOrg(ctx.store.paths.root);
  const loaded = await loadWorkflow(ctx.store.paths.root, workflow, { org });
  return { workflow, current: firstGate(loaded).id, history: [] };
}
