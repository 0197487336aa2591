import * as z from 'zod';
import { SvcError } from './errors.js';
import { isSafeId } from './ids.js';
import { PRIORITIES, type Priority } from './priority.js';
import { assertSchemaVersion } from './schema-version.js';
import { STATUSES, type Status } from './status.js';
import { DROPPED_KEY_PROBLEM, findDroppedKeys, toTaskProblems } from './task-issues.js';

/** Longest title accepted. */
export const MAX_TITLE_LENGTH = 500;
/** Largest body accepted (bytes of UTF-8). */
export const MAX_BODY_BYTES = 1024 * 1024;

const timestamp = z.iso.datetime({ offset: true });
const idString = z.string().refine(isSafeId, 'must be letters, digits, ".", "_" or "-" (no "/", no "..")');

/** `routing`: who should do the task; unknown keys are kept. */
export const RoutingSchema = z.looseObject({
  agent: z.string().min(1).optional(),
  team: z.string().min(1).optional(),
  role: z.string().min(1).optional(),
  tags: z.array(z.string()).optional(),
  workflow: z.string().min(1).optional(),
  /**
   * A workspace of the org chart (`aof.workspaces`), or `parent` for the parent task's worktree (docs/workspaces.md).
   */
  workspace: z.string().min(1).optional(),
  /** Checks of the org chart (`aof.checks`) that must pass before the task is done. */
  verify: z.array(z.string().min(1)).optional(),
});

/** `workspace`: the git worktree a task works in, recorded at its first dispatch (docs/workspaces.md). */
export const WorkspaceSchema = z.looseObject({
  name: z.string().min(1),
  path: z.string().min(1),
  branch: z.string().min(1),
  base: z.string().min(1),
  host: z.string().min(1),
});

/**
 * `lease`: present only while in progress; `sessionId` is the fencing token. `host` and `pid` name
 * the process that granted it (a daemon, or the command line for a claim), so that with several
 * hosts on one tree everyone can tell whose dispatch it is.
 */
export const LeaseSchema = z.looseObject({
  agent: z.string().min(1),
  expiresAt: timestamp,
  sessionId: z.string().min(1),
  host: z.string().min(1).optional(),
  pid: z.number().int().positive().optional(),
});

/** `sla`: only `alert` is accepted for `onViolation` in this phase. */
export const SlaSchema = z.looseObject({
  maxInProgressMs: z.number().positive().optional(),
  onViolation: z
    .literal('alert', { error: 'only "alert" is supported (block and deadletter are reserved)' })
    .optional(),
});

/** `gate`: the workflow position of a gated task. */
export const GateSchema = z.looseObject({
  workflow: z.string().min(1),
  current: z.string().min(1),
  history: z.array(z.record(z.string(), z.unknown())).default([]),
});

/** The task frontmatter: every required field of the specification, optional ones, unknown keys preserved. */
export const TaskSchema = z.looseObject({
  schemaVersion: z.literal(1),
  id: idString,
  project: z.string().min(1),
  title: z.string().min(1).max(MAX_TITLE_LENGTH),
  status: z.enum(STATUSES),
  priority: z.enum(PRIORITIES),
  routing: RoutingSchema,
  createdAt: timestamp,
  updatedAt: timestamp,
  lastTransitionAt: timestamp,
  createdBy: z.string().min(1),
  dependsOn: z.array(idString),
  metadata: z.record(z.string(), z.unknown()),
  lease: LeaseSchema.optional(),
  sla: SlaSchema.optional(),
  parentId: idString.optional(),
  gate: GateSchema.optional(),
  /** Not dispatched before this time (docs/scheduler.md). */
  notBefore: timestamp.optional(),
  /** Expected done by this time; past it, one `[AOF] OVERDUE:` alert. */
  dueAt: timestamp.optional(),
  workspace: WorkspaceSchema.optional(),
});

export type Task = z.infer<typeof TaskSchema>;
export type Routing = z.infer<typeof RoutingSchema>;
export type Lease = z.infer<typeof LeaseSchema>;
export type TaskWorkspace = z.infer<typeof WorkspaceSchema>;
export type { Priority, Status };

/** A task file: frontmatter and Markdown body. */
export interface TaskDoc {
  task: Task;
  body: string;
}

/** Frontmatter key order on disk: the specification's order, then unknown keys. */
export const TASK_KEY_ORDER = [
  'schemaVersion',
  'id',
  'project',
  'title',
  'status',
  'priority',
  'routing',
  'createdAt',
  'updatedAt',
  'lastTransitionAt',
  'createdBy',
  'dependsOn',
  'metadata',
  'lease',
  'sla',
  'parentId',
  'gate',
  'notBefore',
  'dueAt',
  'workspace',
] as const;

/** Validates frontmatter data; every problem is listed, one `path: problem` a line. */
export function parseTask(data: unknown, source: string): Task {
  assertSchemaVersion(data, source);
  const dropped = findDroppedKeys(data);
  if (dropped.length) {
    throw new SvcError(
      'validation_error',
      `${source}: invalid task frontmatter:\n${dropped.map((path) => `  ${path}: ${DROPPED_KEY_PROBLEM}`).join('\n')}`,
      'Rename the key; the file is left out of scheduling until it parses.',
    );
  }
  const result = TaskSchema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  const problems = toTaskProblems(result.error.issues);
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const upgrade = problems.some((line) => line.endsWith('upgrade svc'));
  throw new SvcError(
    'validation_error',
    `${source}: invalid task frontmatter (${count}):\n${problems.map((line) => `  ${line}`).join('\n')}`,
    upgrade
      ? 'Upgrade svc to read this file (it was written by a newer ' +
          'version); the file is left out of scheduling until then.'
      : 'Fix the listed fields; the file is left out of scheduling until it parses.',
  );
}

/** Formats zod issues as `path: problem` lines. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => `  ${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`).join('\n');
}

/** Orders the keys of a task for writing: the known order first, then the rest as found. */
export function toOrderedTask(task: Task): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of TASK_KEY_ORDER) if (task[key] !== undefined) out[key] = task[key];
  for (const [key, value] of Object.entries(task)) if (!(key in out) && value !== undefined) out[key] = value;
  return out;
}

/** Consecutive failed dispatches recorded in `metadata.dispatchFailures` (0 when absent or not a number). */
export function toDispatchFailures(metadata: Record<string, unknown>): number {
  const failures = Number(metadata.dispatchFailures ?? 0);
  return Number.isFinite(failures) ? failures : 0;
}

/**
 * When a task that failed a dispatch may be tried again (`metadata.nextAttemptAt`), or undefined when absent or not a
 * time.
 */
export function toNextAttemptAt(metadata: Record<string, unknown>): string | undefined {
  const at = metadata.nextAttemptAt;
  return typeof at === 'string' && Number.isFinite(Date.parse(at)) ? at : undefined;
}

/**
 * Throws `too_large`/`validation_error` for a title or body over the limits, and `validation_error` for a NUL character
 * (no agent can be handed one: argv and environment strings end at NUL).
 */
export function assertTaskText(title: string | undefined, body: string | undefined): void {
  if (title !== undefined && title.length > MAX_TITLE_LENGTH) {
    throw new SvcError(
      'too_large',
      `Title has ${title.length} characters; the limit is ${MAX_TITLE_LENGTH}.`,
      'Shorten the title and put the detail in the body.',
    );
  }
  if (title !== undefined && !title.trim())
    throw new SvcError('validation_error', 'Title is empty.', 'Give the task a short title.');
  if (body !== undefined && Buffer.byteLength(body) > MAX_BODY_BYTES) {
    throw new SvcError(
      'too_large',
      `Body has ${Buffer.byteLength(body)} bytes; the limit is ${MAX_BODY_BYTES}.`,
      'Keep large material in files and link to them from the body.',
    );
  }
  assertNoNul('Title', title);
  assertNoNul('Body', body);
}

/**
 * Throws `validation_error` for a NUL character in text bound for a task's title or body (`what` names it: `Body`,
 * `Summary`).
 */
export function assertNoNul(what: string, text: string | undefined): void {
  const at = text?.indexOf('\0') ?? -1;
  if (at >= 0)
    throw new SvcError(
      'validation_error',
      `${what} contains a NUL character (at offset ${at}): no agent could be ` +
        `handed it (the environment and arguments of a process end at NUL).`,
      `Remove the NUL character from the ${what.toLowerCase()}.`,
    );
}
