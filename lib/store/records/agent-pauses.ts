import { readFile } from 'node:fs/promises';
import { describeError, hasCode, SvcError } from '../../core/errors.js';
import { writeDurable } from '../../fs/atomic.js';
import { withLock } from '../../fs/lock/lock.js';
import type { EventLog } from '../events/log.js';
import type { Paths } from '../disk/paths.js';

/** A paused agent: since when, by whom, and why (docs/command-line.md: `svc agent pause`). */
export interface AgentPause {
  agent: string;
  since: string;
  by: string;
  reason?: string;
}

/** What `setAgentPause` changes. */
export interface PauseChange {
  agent: string;
  paused: boolean;
  actor: string;
  reason?: string | undefined;
}

/** What a pause or resume did: `changed` false when the agent already was in that state. */
export interface PauseResult {
  agent: string;
  paused: boolean;
  changed: boolean;
  pause: AgentPause | null;
}

/**
 * The paused agents of `data/agent-pauses.json` (none when the file is absent). A file that does not
 * parse is a `validation_error` naming it: a pause is never dropped without a word.
 */
export async function readAgentPauses(paths: Paths): Promise<Map<string, AgentPause>> {
  let text: string;
  try {
    text = await readFile(paths.agentPauses, 'utf8');
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return new Map();
    throw err;
  }
  return parsePauses(text, paths.agentPauses);
}

/**
 * Pauses or resumes an agent: under the file's lock, re-read, written atomically and durably, then
 * one `agent.paused` or `agent.resumed` event. Pausing a paused agent keeps its first pause (a new
 * reason replaces the old); resuming an agent that is not paused changes nothing.
 */
export async function setAgentPause(
  paths: Paths,
  events: EventLog,
  change: PauseChange & { now: Date },
): Promise<PauseResult> {
  const { now } = change;
  const result = await withLock(paths.agentPausesLock, { what: 'the agent pauses', waitMs: 5000 }, async (lock) => {
    const pauses = await readAgentPauses(paths);
    const before = pauses.get(change.agent);
    if (!change.paused && !before) return { agent: change.agent, paused: false, changed: false, pause: null };
    if (change.paused && before && (change.reason === undefined || change.reason === before.reason))
      return { agent: change.agent, paused: true, changed: false, pause: before };
    if (change.paused)
      pauses.set(change.agent, {
        agent: change.agent,
        since: before?.since ?? now.toISOString(),
        by: change.actor,
        ...(change.reason ? { reason: change.reason } : {}),
      });
    else pauses.delete(change.agent);
    lock.assertHeld();
    await writeDurable(paths.agentPauses, toFileText(pauses), 0o600);
    return { agent: change.agent, paused: change.paused, changed: true, pause: pauses.get(change.agent) ?? null };
  });
  if (!result.changed) return result;
  const payload = { agent: change.agent, ...(change.reason ? { reason: change.reason } : {}) };
  await events.record(now, [{ type: change.paused ? 'agent.paused' : 'agent.resumed', actor: change.actor, payload }]);
  return result;
}

// --- internal ---

function parsePauses(text: string, file: string): Map<string, AgentPause> {
  const bad = (problem: string) =>
    new SvcError(
      'validation_error',
      `${file}: ${problem}.`,
      `Fix the file (it is {"paused": {"<agent>": {"since", "by", "reason"?}}}) or remove it to resume every agent.`,
    );
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw bad(`not JSON (${describeError(err)})`);
  }
  const paused = (data as { paused?: unknown } | null)?.paused;
  if (!paused || typeof paused !== 'object' || Array.isArray(paused))
    throw bad('expected an object with a "paused" object, found something else');
  const out = new Map<string, AgentPause>();
  for (const [agent, entry] of Object.entries(paused as Record<string, unknown>)) {
    const { since, by, reason } = (entry ?? {}) as Record<string, unknown>;
    if (typeof since !== 'string' || typeof by !== 'string')
      throw bad(`paused.${agent} needs "since" and "by" strings`);
    out.set(agent, { agent, since, by, ...(typeof reason === 'string' ? { reason } : {}) });
  }
  return out;
}

function toFileText(pauses: ReadonlyMap<string, AgentPause>): string {
  const paused = Object.fromEntries(
    [...pauses].map(([agent, { since, by, reason }]) => [agent, { since, by, ...(reason ? { reason } : {}) }]),
  );
  return `${JSON.stringify({ paused }, null, 2)}\n`;
}
