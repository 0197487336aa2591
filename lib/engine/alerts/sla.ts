import { toTerminalText } from '../../core/text.js';
import { formatDuration } from '../../core/time/clock.js';
import type { OrgChart, ProjectSla } from '../../org/schema.js';

/** Limit of an in-progress task when neither the task nor its project sets one: 1 hour. */
export const DEFAULT_MAX_IN_PROGRESS_MS = 60 * 60 * 1000;
/** One alert per task per this many minutes when the project does not say. */
export const DEFAULT_RATE_LIMIT_MINUTES = 15;
/** The capability (or role name) that makes an agent a researcher. */
export const RESEARCH = 'research';

/** What an SLA check needs of an in-progress task. */
export interface SlaTask {
  id: string;
  title: string;
  project: string;
  updatedAt: string;
  routing: { agent?: string | undefined };
  /** The lease holder, else `routing.agent`. */
  agent: string | undefined;
  /** `sla.maxInProgressMs` of the task. */
  maxInProgressMs: number | undefined;
}

/** The limit that applies to a task, and where it came from. */
export interface SlaLimit {
  limitMs: number;
  source: 'task' | 'project' | 'project research' | 'default';
}

/** A task in progress for longer than its limit. */
export interface SlaViolation {
  task: SlaTask;
  durationMs: number;
  limitMs: number;
  source: SlaLimit['source'];
  agent: string;
}

/**
 * The limit of a task: its own `sla.maxInProgressMs`; else its project's `researchMaxInProgressMs`
 * when `routing.agent` is a researcher agent, or `defaultMaxInProgressMs`; else 1 hour.
 */
export function resolveSlaLimit(task: SlaTask, org: OrgChart | null): SlaLimit {
  if (task.maxInProgressMs !== undefined) return { limitMs: task.maxInProgressMs, source: 'task' };
  const sla = projectSlaOf(org, task.project);
  if (sla?.researchMaxInProgressMs !== undefined && isResearcher(task.routing.agent, org))
    return { limitMs: sla.researchMaxInProgressMs, source: 'project research' };
  if (sla?.defaultMaxInProgressMs !== undefined) return { limitMs: sla.defaultMaxInProgressMs, source: 'project' };
  return { limitMs: DEFAULT_MAX_IN_PROGRESS_MS, source: 'default' };
}

/** The violation of a task at `now` (in progress since `updatedAt` for longer than its limit), or null. */
export function checkSla(task: SlaTask, org: OrgChart | null, now: Date): SlaViolation | null {
  const { limitMs, source } = resolveSlaLimit(task, org);
  const durationMs = now.getTime() - Date.parse(task.updatedAt);
  if (!(durationMs > limitMs)) return null;
  return { task, durationMs, limitMs, source, agent: task.agent ?? task.routing.agent ?? 'unassigned' };
}

/**
 * How long alerts of one task stay quiet after one was raised: `alerting.rateLimitMinutes` of its project, else 15
 * minutes.
 */
export function toRateLimitMs(org: OrgChart | null, project: string): number {
  return (projectSlaOf(org, project)?.alerting.rateLimitMinutes ?? DEFAULT_RATE_LIMIT_MINUTES) * 60_000;
}

/** A researcher agent: one with the capability `research`, or listed under `roles.research` or `roles.researcher`. */
export function isResearcher(agentId: string | undefined, org: OrgChart | null): boolean {
  if (!agentId || !org) return false;
  if (org.agents.some((agent) => agent.id === agentId && agent.capabilities.includes(RESEARCH))) return true;
  return [org.roles[RESEARCH], org.roles.researcher].some((role) => role?.agents.includes(agentId));
}

/** The console alert of a violation (`[AOF] SLA VIOLATION:` lines). */
export function formatSlaAlert(v: SlaViolation): string {
  return [
    `[AOF] SLA VIOLATION: ${v.task.id} "${v.task.title}"`,
    `[AOF] SLA VIOLATION:   in progress for ${formatDuration(v.durationMs)} ` +
      `(limit ${formatDuration(v.limitMs)}, ${v.source}), agent: ${v.agent}`,
    `[AOF] SLA VIOLATION:   action: check on ${v.agent} (\`svc task show ${v.task.id}\`); if it is stuck, \`svc ` +
      `task status ${v.task.id} ready\` or \`svc task block ${v.task.id} --reason ...\` (alerts never move the task)`,
  ]
    .map((line) => toTerminalText(line))
    .join('\n');
}

// --- internal ---

function projectSlaOf(org: OrgChart | null, project: string): ProjectSla | undefined {
  return org?.aof.projects[project]?.sla;
}
