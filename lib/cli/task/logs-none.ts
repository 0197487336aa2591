import { toSessionKey } from '../../core/spawn.js';
import { probeDaemon } from '../../daemon/control.js';
import { loadOrg } from '../../org/org-chart.js';
import { routeTask } from '../../org/routing.js';
import { readEvents } from '../../store/events/log.js';
import { toPaths } from '../../store/disk/paths.js';
import type { StoredTask } from '../../store/disk/task-file.js';
import type { Context } from '../frame/context.js';

/** A run of a task through the gateway or the plugin, read off its `task.dispatched` event: it writes no log here. */
export interface GatewayRun {
  kind: 'plugin' | 'standalone';
  name: string;
  session: string;
  startedAt: string;
  /**
   * The gateway session the agent ran in when the daemon names it (a plugin spawn's is `agent:<agent>:svc-<task id>`).
   */
  gatewaySession: string | null;
}

/** The runs of a task that went through the gateway or the plugin (their output stays in the gateway), oldest first. */
export async function listGatewayRuns(ctx: Context, taskId: string): Promise<GatewayRun[]> {
  const events = await readEvents(ctx.root, { taskId, type: 'task.dispatched' });
  const runs: GatewayRun[] = [];
  for (const { payload, timestamp } of events) {
    const { adapter, agent, sessionId } = (payload ?? {}) as {
      adapter?: unknown;
      agent?: unknown;
      sessionId?: unknown;
    };
    if (
      (adapter !== 'plugin' && adapter !== 'standalone') ||
      typeof agent !== 'string' ||
      typeof sessionId !== 'string'
    )
      continue;
    runs.push({
      kind: adapter,
      name: agent,
      session: sessionId,
      startedAt: timestamp,
      gatewaySession: adapter === 'plugin' ? toSessionKey(agent, taskId) : null,
    });
  }
  return runs;
}

/** One line on a run whose output is in the gateway, not in a run log. */
export function describeGatewayRun(taskId: string, run: GatewayRun): string {
  const via = run.kind === 'plugin' ? 'the gateway plugin' : 'the gateway (standalone adapter)';
  const where = run.gatewaySession ? `the gateway's session ${run.gatewaySession}` : 'the gateway';
  return (
    `=== svc run: task ${taskId}, agent ${run.name} through ${via}, session ${run.session}, ` +
    `started ${run.startedAt}: its output is in ${where}, not in a run log here ===`
  );
}

/**
 * Why no run log will come for a task with none yet, or null while one may: it is claimed (by the
 * operator, say) rather than dispatched, its run went to the gateway or the plugin, the agent it
 * routes to has no command (its runs go there too), or no daemon runs on the root to dispatch it.
 */
export async function explainNoLog(ctx: Context, stored: StoredTask): Promise<string | null> {
  const { task } = stored;
  const lease = stored.status === 'in-progress' ? task.lease : undefined;
  if (lease) {
    const dispatched = await readEvents(ctx.root, { taskId: task.id, type: 'task.dispatched' });
    if (
      !dispatched.some((event) => (event.payload as { sessionId?: unknown } | undefined)?.sessionId === lease.sessionId)
    ) {
      return (
        `(${task.id} is claimed by ${lease.agent} (session ` +
        `${lease.sessionId}), not dispatched: no run writes a log for it)`
      );
    }
    const run = (await listGatewayRuns(ctx, task.id)).find((r) => r.session === lease.sessionId);
    if (run) return describeGatewayRun(task.id, run).replace(/^=== svc run: (.*) ===$/, '($1)');
  }
  if ((await probeDaemon(toPaths(ctx.root))).state === 'not-running') {
    return (
      `(${task.id} has no run log, and no daemon runs on ${ctx.root} to ` +
      `dispatch it: start one with \`svc daemon start\`, then follow again)`
    );
  }
  if (lease || task.gate) return null; // a gate's role comes from its workflow: left to the daemon
  const org = await loadOrg(ctx.root).catch(() => null);
  const route = routeTask({ routing: task.routing }, org, new Map());
  if (!('agent' in route)) return null;
  const agent = org?.agents.find((a) => a.id === route.agent);
  if (!agent || agent.command) return null;
  return (
    `(${task.id} goes to agent ${route.agent}, which has no command: its runs go ` +
    `through the gateway, whose output stays there, and write no run log here)`
  );
}
