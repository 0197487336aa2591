import type { RunEnd } from '../core/spawn.js';
import type { RunSummary } from './stream-watch.js';

/**
 * How a run of an agent CLI ended, in the scheduler's words: a failure with the CLI's own message when it was hung,
 * denied a tool, or reported an error; otherwise as its exit says (the scheduler then checks the task was finished).
 * The reason carries the message (`run_failed: API Error: ...`), as `dispatch.failed` records it.
 */
export function toRunEnd(
  summary: RunSummary,
  exit: { code: number | null; signal: string | null; hung: boolean; idleMs: number; stopped?: string },
): RunEnd {
  const how = exit.signal ? { signal: exit.signal } : { exitCode: exit.code ?? 0 };
  const fail = (reason: string, message: string): RunEnd => ({
    ok: false,
    reason: `${reason}: ${message}`,
    error: message,
    ...how,
  });
  if (exit.hung)
    return fail(
      'run_hung',
      `no output for ${Math.round(exit.idleMs / 1000)} s${summary.lastError ? `; last: ${summary.lastError}` : ''}`,
    );
  if (exit.stopped) return { ok: false, reason: 'ended_by_svc', error: `ended by svc: ${exit.stopped}`, ...how };
  const denied = summary.denied[0];
  if (denied)
    return fail('tool_denied', `permission denied: ${denied.tool}${denied.message ? ` (${denied.message})` : ''}`);
  if (summary.result && !summary.result.ok)
    return fail('run_failed', summary.result.message ?? summary.lastError ?? 'the CLI reported a failure');
  if (!summary.result && summary.lastError) return fail('run_failed', summary.lastError);
  if (exit.signal || (exit.code ?? 0) !== 0)
    return {
      ok: false,
      reason: 'ended_without_completion',
      error: exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`,
      ...how,
    };
  return { ok: true, ...how };
}
