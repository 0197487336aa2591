import type { Routing, Task } from './task.js';

/** The agent of the lease a task holds while the daemon itself runs its checks (docs/workspaces.md). */
export const CHECK_AGENT = 'svc';

/** How a spawn reaches an agent: a local command, the gateway plugin, or the gateway's HTTP API. */
export type AdapterKind = 'command' | 'plugin' | 'standalone';

/** Failures after which a ready task goes to deadletter instead of being dispatched. */
export const MAX_DISPATCH_FAILURES = 3;

/**
 * The gateway session a plugin spawn runs under: `agent:<agent>:svc-<task id>` (the daemon and the plugin share it).
 */
export function toSessionKey(agent: string, taskId: string): string {
  return `agent:${agent}:svc-${taskId}`;
}

/** What an adapter receives to start an agent run on a task. */
export interface SpawnRequest {
  /** Spawn id: the lease's session id. */
  id: string;
  taskId: string;
  agent: string;
  sessionId: string;
  prompt: string;
  task: {
    title: string;
    priority: string;
    routing: Routing;
    gate?: Task['gate'];
    body: string;
    metadata: Readonly<Record<string, unknown>>;
  };
  /**
   * The short prompt of a run that continues the agent's earlier session of this task (what happened since, how to
   * finish); an adapter that resumes sessions sends it instead of `prompt`.
   */
  resumePrompt?: string;
  /** The git worktree the run works in (docs/workspaces.md), when the task has one. */
  workspace?: { path: string; branch: string };
}

/** How an agent run ended: `ok: false` when it failed; the scheduler checks whether the task was completed. */
export interface RunEnd {
  ok: boolean;
  reason?: string;
  error?: string;
  /** A local process's exit code (0 too: it exited without completing), when it exited. */
  exitCode?: number;
  /** The signal that killed a local process. */
  signal?: string;
}

/** A started run. `ended` settles when the run is over (never rejects); absent when the adapter cannot see the end. */
export interface SpawnRun {
  ended?: Promise<RunEnd>;
}

/** Starts agent runs. `spawn` rejects with a `SpawnError` when the run could not be started. */
export interface Adapter {
  kind: AdapterKind;
  spawn(request: SpawnRequest): Promise<SpawnRun>;
}

/** A failure to start a run, with the reason recorded as `lastFailureReason`. */
export class SpawnError extends Error {
  readonly reason: string;

  constructor(reason: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SpawnError';
    this.reason = reason;
  }
}

/** The failure reason of anything a spawn threw. */
export function toFailureReason(err: unknown): string {
  return err instanceof SpawnError ? err.reason : 'spawn_failed';
}
