import type { IncomingMessage } from 'node:http';
import { findRunOf, type RunProcess } from '../../adapters/run-of.js';
import { RUN_SESSION_HEADER } from '../../core/request-id.js';
import type { IndexEntry } from '../../store/index/tasks.js';
import type { RunCaller } from '../../tools/registry.js';
import { findSocketPeers } from './peer.js';

/** What tells a run's call: the local runs alive now and the leases of the tasks in progress. */
export interface RunCallerSource {
  /** The local command agent runs not yet gone (leader pid, task, session). */
  runs: () => readonly RunProcess[];
  /** The tasks in progress (their leases name the sessions of every adapter's runs). */
  inProgress: () => Iterable<IndexEntry>;
}

/**
 * Tells whether a request on the socket comes from a live agent run: the session it carries
 * (`x-svc-session`, set by `svc` from `SVC_SESSION_ID`) names a live run or a lease, or the process
 * at the other end of the connection belongs to a local run (its process group, Unix session,
 * parents or environment). Asked only by the operator's decision tools, so the cost (one `ss`) is
 * paid by those calls alone.
 */
export function createRunCallers(source: RunCallerSource): (req: IncomingMessage) => Promise<RunCaller | null> {
  return async (req) => {
    const header = req.headers[RUN_SESSION_HEADER];
    const named = typeof header === 'string' && header ? toRunCaller(header, source) : null;
    if (named) return named;
    const runs = source.runs();
    if (!runs.length) return null;
    for (const pid of (await findSocketPeers(req.socket)) ?? []) {
      const run = findRunOf(pid, runs);
      if (run) return toRunCaller(run.sessionId, source) ?? { taskId: run.taskId, sessionId: run.sessionId };
    }
    return null;
  };
}

// --- internal ---

function toRunCaller(sessionId: string, source: RunCallerSource): RunCaller | null {
  for (const entry of source.inProgress()) {
    if (entry.lease?.sessionId === sessionId) return { taskId: entry.id, sessionId, agent: entry.lease.agent };
  }
  const run = source.runs().find((candidate) => candidate.sessionId === sessionId);
  return run ? { taskId: run.taskId, sessionId } : null;
}
