import type { Task } from '../core/task.js';
import { toFinishLines } from './prompt.js';

/** A line of a gate's history, as the gate flow writes it. */
interface HistoryEntry {
  gate?: string;
  outcome?: string;
  actor?: string;
  at?: string;
  summary?: string;
  blockers?: unknown[];
}

/**
 * The prompt of a run that continues an agent's earlier session of a task (docs/agent-runtimes.md, "Sessions"): what
 * happened since `since` (the gates passed and their blockers, the last check that failed, a failed run, a budget
 * raised), then how to finish under the new session. The earlier conversation holds the brief already.
 */
export function toResumePrompt(task: Task, body: string, run: { sessionId: string; since: string }): string {
  const lines = [
    `You are continuing task ${task.id}: ${task.title}`,
    `Your earlier session of this task is above. Since then:`,
    ...whatHappened(task, body, run.since).map((line) => `- ${line}`),
    '',
    `Your lease now has a new session id, ${run.sessionId}: use it in every call below.`,
    ...toFinishLines(task, run.sessionId),
  ];
  return lines.join('\n');
}

// --- internal ---

function whatHappened(task: Task, body: string, since: string): string[] {
  const after = (at: unknown) => typeof at === 'string' && at > since;
  const said: string[] = [];
  const history = (task.gate?.history ?? []) as HistoryEntry[];
  for (const entry of history.filter((h) => after(h.at))) {
    const blockers = entry.blockers?.length ? `: ${entry.blockers.map(String).join('; ')}` : '';
    said.push(
      `gate ${entry.gate} ended ${entry.outcome ?? 'with a decision'} by ${entry.actor ?? 'someone'}${blockers}`,
    );
  }
  const lastCheck = task.metadata.lastCheck as { name?: string; exitCode?: number; at?: string } | undefined;
  if (lastCheck && after(lastCheck.at) && lastCheck.exitCode !== 0) {
    const section = body.lastIndexOf('## Check failed');
    said.push(
      `the check ${lastCheck.name} failed (exit code ${lastCheck.exitCode})` +
        (section >= 0 ? `; its report:\n\n${body.slice(section).trim()}\n` : ''),
    );
  }
  const failure = task.metadata.lastFailureReason;
  if (typeof failure === 'string' && Number(task.metadata.dispatchFailures ?? 0) > 0)
    said.push(`your last run failed: ${failure}`);
  const budget = task.metadata.budget as { usd?: number; tokens?: number } | undefined;
  const limits = [
    budget?.usd !== undefined ? `$${budget.usd}` : '',
    budget?.tokens !== undefined ? `${budget.tokens} tokens` : '',
  ].filter(Boolean);
  if (limits.length) said.push(`the task's budget is now ${limits.join(' and ')}`);
  if (task.gate) said.push(`the task is at gate ${task.gate.current} of workflow ${task.gate.workflow}`);
  return said.length ? said : ['the task came back to you (your last run ended before finishing it)'];
}
