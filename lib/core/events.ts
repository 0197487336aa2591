import type { Priority } from './priority.js';
import type { Status } from './status.js';
import type { Routing, TaskWorkspace } from './task.js';

/**
 * Every event type svc records in `data/events/*.jsonl`, declared once (docs/events.md lists the
 * same, and a test holds the two together). An emitter names one of these; its payload is the
 * type `EventPayloads` gives it, so an undeclared type or a wrong payload fails the typecheck.
 */
export const EVENT_TYPES = [
  'task.created',
  'task.updated',
  'task.transitioned',
  'task.dispatched',
  'dispatch.failed',
  'task.deadletter',
  'task.resurrected',
  'lease.expired',
  'recovery_action',
  'task.completed',
  'task.cancelled',
  'task.blocked',
  'task.unblocked',
  'gate.transition',
  'gate.awaiting',
  'gate.approved',
  'gate.rejected',
  'task.invalid',
  'task.archived',
  'daemon.started',
  'daemon.stopped',
  'murmur.review',
  'sla.violation',
  'task.overdue',
  'agent.paused',
  'agent.resumed',
  'task.imported',
  'task.migrated',
  'workspace.attached',
  'workspace.removed',
  'workspace.kept',
  'workspace.branch_deleted',
  'task.checking',
  'task.verified',
  'task.check_failed',
  'run.usage',
  'budget.warning',
  'budget.exceeded',
  'plugin.session-end',
  'plugin.agent-end',
  'plugin.before-compaction',
  'plugin.message-received',
] as const;

/** One of `EVENT_TYPES`. */
export type EventType = (typeof EVENT_TYPES)[number];

/** The payload of each event type (type aliases, not interfaces, so each is a plain record). */
export type EventPayloads = Declared<{
  'task.created': { title: string; status: Status; priority: Priority; routing: Routing; createdBy: string };
  /** `fields` names what changed; a note, a dependency added or removed say which. */
  'task.updated': { fields: string[]; note?: string; added?: string; removed?: string };
  'task.transitioned': { from: Status; to: Status; reason?: string };
  /** `host` and `pid` of a local agent's process; `recovered` when rebuilt after a crash. */
  'task.dispatched': {
    agent: string;
    adapter: string;
    sessionId: string;
    host?: string;
    pid?: number;
    recovered?: boolean;
  };
  'dispatch.failed': ExitFields & {
    agent: string;
    reason: string;
    failureCount: number;
    sessionId: string;
    nextAttemptAt?: string;
  };
  'task.deadletter': ExitFields & { reason: 'max_dispatch_failures'; failureCount: number; lastFailureReason: string };
  'task.resurrected': { from: 'deadletter'; to: 'ready'; previousFailures: number };
  'lease.expired': { agent: string; sessionId: string; expiredAt: string };
  /** `details` says what was done, as the action found it (free-form). */
  recovery_action: { action: 'lease_expired' | 'duplicate_resolved'; details: Record<string, unknown> };
  /** `via: 'close'` for a close; else the completion's outcome and summary, when given. */
  'task.completed': { via?: 'close'; outcome?: string; summary?: string };
  'task.cancelled': { reason?: string };
  'task.blocked': { reason: string };
  /** Empty: the `task.transitioned` beside it says where to. */
  'task.unblocked': Record<string, never>;
  'gate.transition': { workflow: string; from: string; to: string | null; outcome?: string; roleNotChecked?: string };
  'gate.awaiting': { workflow: string | null; gate: string };
  'gate.approved': GateDecision & { to: string | null };
  'gate.rejected': GateDecision & { to: string };
  'task.invalid': { path: string; status: string; message: string };
  'task.archived': { from: Status; to: string };
  'daemon.started': { pid: number; version: string };
  'daemon.stopped': { pid: number };
  'murmur.review': {
    team: string;
    action: string;
    trigger: string | null | undefined;
    reason?: string;
    agent?: string;
    ageMs?: number;
  };
  'sla.violation': { duration: number; limit: number; agent: string; timestamp: number };
  'task.overdue': { dueAt: string | undefined; status: Status; agent: string | null };
  'agent.paused': AgentPause;
  'agent.resumed': AgentPause;
  /** `status` and `title` of a created task; `sourceEvents` and `history` summarise the source's own events. */
  'task.imported': {
    source: string;
    sourceId: string;
    action: 'created' | 'updated';
    status?: Status;
    title?: string;
    sourceEvents?: number;
    history?: string[];
  };
  'task.migrated': { from: number; to: number; changes: string[] };
  'workspace.attached': TaskWorkspace & { created: boolean };
  'workspace.removed': { path: string; branch: string; forced?: boolean; existed?: boolean; pruned?: boolean };
  'workspace.kept': { path: string; branch: string; reason: 'uncommitted changes' | 'symbolic link' };
  'workspace.branch_deleted': { repo: string; branch: string; base: string; sha: string };
  'task.checking': { checks: string[]; sessionId: string; gate?: string };
  'task.verified': { checks: string[]; durationMs: number; gate?: string };
  'task.check_failed': CheckFailure;
  /**
   * The tokens and cost of one run of an agent CLI (docs/agent-runtimes.md); `run` names the run's log
   * (`<lease session>-<n>`), `sessionId` the CLI's own session. `costUsd` null: not known.
   */
  'run.usage': {
    agent: string;
    runtime: string;
    model: string | null;
    sessionId: string | null;
    run: string;
    inputTokens: number;
    outputTokens: number;
    cacheReadTokens: number;
    cacheWriteTokens: number;
    costUsd: number | null;
  };
  /** 80 % of a budget spent (`scope`: task, agent or team; `id` the task, agent or team; `unit`: usd or tokens). */
  'budget.warning': BudgetFigures;
  /** A budget spent: the run is ended, the task waits blocked for `svc task approve --budget-usd`. */
  'budget.exceeded': BudgetFigures;
  /** A hook's body as the plugin posted it: free-form, the hook's own shape. */
  'plugin.session-end': Record<string, unknown>;
  'plugin.agent-end': Record<string, unknown>;
  'plugin.before-compaction': Record<string, unknown>;
  'plugin.message-received': Record<string, unknown>;
}>;

/** What a budget event says: which budget, its limit and what is spent, in dollars or tokens. */
export type BudgetFigures = {
  scope: 'task' | 'agent' | 'team';
  id: string;
  limit: number;
  spent: number;
  unit: 'usd' | 'tokens';
  period?: 'day' | 'month';
};

/** An event of type `T` as an emitter supplies it (the timestamp comes from the log's clock). */
export interface EventInputOf<T extends EventType> {
  type: T;
  taskId?: string;
  actor: string;
  payload: EventPayloads[T];
}

/** An event as an emitter supplies it: one of the declared types with its payload. */
export type EventInput = { [T in EventType]: EventInputOf<T> }[EventType];

/**
 * One line of the event log as read back. Lines are not checked when read (a log written by an
 * older svc, or by hand, still reads), so the payload is a plain record here.
 */
export interface SvcEvent {
  timestamp: string;
  type: EventType;
  taskId?: string;
  actor: string;
  payload: Record<string, unknown>;
}

// --- internal ---

/** How a local agent's process ended: an exit code or a signal. */
type ExitFields = { exitCode?: number; signal?: string };

type GateDecision = { workflow: string; gate: string; by: string; note: string | null };

type AgentPause = { agent: string; reason?: string };

type CheckFailure = {
  name: string;
  exitCode: number | null;
  timedOut: boolean;
  at: string;
  signal: string | null | undefined;
  durationMs: number;
  failures: number;
  gate?: string;
  log?: string;
  to: Status;
};

/** `T` when it has a payload for every declared type and for no other. */
type Declared<T extends Record<EventType, Record<string, unknown>> & Record<Exclude<keyof T, EventType>, never>> = T;
