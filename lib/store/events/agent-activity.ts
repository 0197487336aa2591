import type { EventType } from '../../core/events.js';
import type { SvcEvent } from './log.js';

/** What the event log says of one agent: its last dispatch and its failed dispatches in a row. */
export interface AgentActivity {
  lastDispatch: { at: string; taskId: string } | null;
  /**
   * `dispatch.failed` of this agent since a task dispatched to it last finished a step (`task.completed`,
   * `gate.transition`).
   */
  failuresInARow: number;
}

/** The event types `summarizeAgentActivity` looks at (a reader may keep only these). */
export const ACTIVITY_EVENTS = [
  'task.dispatched',
  'dispatch.failed',
  'task.completed',
  'gate.transition',
] as const satisfies readonly EventType[];

/**
 * Walks events oldest first: `task.dispatched` sets an agent's last dispatch and whose the task's run
 * is; `dispatch.failed` adds one to its agent's streak; a completion or gate step of a task whose last
 * dispatch went to an agent ends that agent's streak. Agents the log never names are absent.
 */
export function summarizeAgentActivity(events: Iterable<SvcEvent>): Map<string, AgentActivity> {
  const out = new Map<string, AgentActivity>();
  const runOf = new Map<string, string>();
  const of = (agent: string) => {
    let activity = out.get(agent);
    if (!activity) out.set(agent, (activity = { lastDispatch: null, failuresInARow: 0 }));
    return activity;
  };
  for (const event of events) {
    const agent = typeof event.payload?.agent === 'string' ? event.payload.agent : undefined;
    if (event.type === 'task.dispatched' && agent && event.taskId) {
      of(agent).lastDispatch = { at: event.timestamp, taskId: event.taskId };
      runOf.set(event.taskId, agent);
    } else if (event.type === 'dispatch.failed' && agent) {
      of(agent).failuresInARow++;
    } else if (
      (event.type === 'task.completed' || event.type === 'gate.transition') &&
      event.taskId &&
      runOf.has(event.taskId)
    ) {
      of(runOf.get(event.taskId)!).failuresInARow = 0;
    }
  }
  return out;
}
