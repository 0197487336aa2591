import { toTerminalText } from '../core/text.js';
import { describeFailure, type Deadlettered } from '../store/changes/dispatch.js';

/** The console alert of a deadletter (`[AOF] DEADLETTER:` lines). */
export function formatDeadletterAlert(dead: Deadlettered, agent: string | undefined): string {
  const { task } = dead;
  return [
    `[AOF] DEADLETTER: ${task.id} "${task.title}"`,
    `[AOF] DEADLETTER:   failures: ${dead.failureCount}, last reason: ` +
      `${dead.last ? describeFailure(dead.last) : dead.lastFailureReason}, ` +
      `agent: ${agent ?? task.routing.agent ?? 'unrouted'}`,
    `[AOF] DEADLETTER:   action: fix the cause, then run \`svc task resurrect ${task.id}\``,
  ]
    .map((line) => toTerminalText(line))
    .join('\n');
}
