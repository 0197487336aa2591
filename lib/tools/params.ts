import * as z from 'zod';
import { SvcError } from '../core/errors.js';
import { PRIORITIES } from '../core/priority.js';
import { STATUSES } from '../core/status.js';
import type { CommitResult } from '../store/commit/protocol.js';
import type { Caller } from '../store/changes/lease.js';
import type { ToolContext } from './registry.js';

/** The actor recorded in events when a caller does not name itself. */
export const DEFAULT_ACTOR = 'agent';

const ID_PROBLEM =
  'must be a task id, a prefix or a sequence such as 007: letters, digits, ".", "_" or "-" (no "/", no "..")';

/** `taskId`-style argument: a full id, a unique prefix or a unique sequence (`007`, `-007`), never a path. */
export function idParam(description: string) {
  return z
    .string()
    .min(1, { error: 'must not be empty', abort: true })
    .max(128, { error: 'must be at most 128 characters', abort: true })
    .regex(/^(?:[A-Za-z0-9][A-Za-z0-9._-]*|-\d+)$/, { error: ID_PROBLEM, abort: true })
    .refine((value) => !value.includes('..'), ID_PROBLEM)
    .describe(description);
}

/** The `actor` every tool accepts. */
export const actorParam = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe('Calling agent id, recorded in events (default "agent").');

/** The lease fencing token handed to a spawned agent. */
export const sessionIdParam = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe(
    'The sessionId of your lease, as given in your spawn prompt. A session whose ' +
      'lease ended is refused (stale_session): stop working on the task then.',
  );

/** Priority enum. */
export const priorityParam = z.enum(PRIORITIES);

/** Status enum. */
export const statusParam = z.enum(STATUSES);

/** A task's own budget (`metadata.budget`): dollars and tokens over all its runs, each a positive number. */
export const budgetParam = z
  .strictObject(
    {
      usd: z.number().positive('must be a number of dollars greater than 0, e.g. 2 or 0.5').optional(),
      tokens: z.number().int('must be a whole number of tokens').positive('must be greater than 0').optional(),
    },
    {
      error: (iss) => (iss.code === 'unrecognized_keys' ? 'unknown budget (known: usd, tokens)' : undefined),
    },
  )
  .refine((b) => b.usd !== undefined || b.tokens !== undefined, 'must name usd or tokens, e.g. { "usd": 2 }')
  .describe(
    "The task's budget over all its runs: { usd?, tokens? }. Spent, a run is ended and the task waits blocked " +
      'for an operator to raise it (docs/agent-runtimes.md).',
  );

/**
 * A tool's params object: strict, so an unknown parameter is a `validation_error` that names it
 * and lists the known ones.
 */
export function toolParams<T extends z.core.$ZodLooseShape>(shape: T) {
  const known = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `unknown parameter ${iss.keys.map((k) => JSON.stringify(k)).join(', ')} (known: ${known})`
        : undefined,
  });
}

/**
 * Largest value kept in the frontmatter from one parameter (`metadata`, `summary`, `blockers`): the frontmatter is
 * capped at 64 KiB.
 */
export const MAX_FIELD_BYTES = 16 * 1024;

/** Throws `too_large` when a parameter stored in the frontmatter serializes to more than `MAX_FIELD_BYTES`. */
export function assertFieldSize(name: string, value: unknown): void {
  if (value === undefined) return;
  const bytes = Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));
  if (bytes <= MAX_FIELD_BYTES) return;
  throw new SvcError(
    'too_large',
    `\`${name}\` has ${bytes} bytes; the limit is ${MAX_FIELD_BYTES}.`,
    'Keep it short and put long material in the task body or in files it links to.',
  );
}

/** The actor of a call. */
export function toActor(params: { actor?: string | undefined }): string {
  return params.actor ?? DEFAULT_ACTOR;
}

/**
 * The caller of a tool under the lease rule: its actor, the session it names, and the call that
 * names a lease, shown when a foreign lease refuses the call.
 */
export function toCaller(params: { actor?: string | undefined; sessionId?: string | undefined }, tool: string): Caller {
  return {
    actor: toActor(params),
    ...(params.sessionId !== undefined ? { sessionId: params.sessionId } : {}),
    retry: (taskId, sessionId) => `${tool}({ taskId: "${taskId}", sessionId: "${sessionId}", ... })`,
  };
}

/**
 * Tells the context's index which tasks were just written. Never throws: the change is committed,
 * so the call succeeds; an index that could not be told catches up on its next rescan.
 */
export async function notifyCommitted(ctx: ToolContext, ids: readonly string[]): Promise<void> {
  try {
    await ctx.onCommitted?.(ids);
  } catch {
    // the index is a hint; the files are the truth
  }
}

/**
 * Runs `commit`, a change by which the lease holder may hand its task on (complete, block), telling
 * the daemon (`ctx.handOn`) before and after: the run that held the lease is then not ended at once
 * but let to finish. Elsewhere (the MCP server, a command without a daemon) it is `commit()`.
 */
export async function withHandOn(
  ctx: ToolContext,
  arg: string,
  commit: () => Promise<CommitResult>,
): Promise<CommitResult> {
  const peek = ctx.handOn ? await ctx.store.get(arg).catch(() => null) : null;
  if (!ctx.handOn || peek?.status !== 'in-progress') return commit();
  const settle = ctx.handOn(peek.task.id);
  let result: CommitResult | null = null;
  try {
    result = await commit();
    return result;
  } finally {
    const session = result?.before.status === 'in-progress' ? result.before.task.lease?.sessionId : undefined;
    const kept = result?.after.status === 'in-progress' && result.after.task.lease?.sessionId === session;
    settle(result && session && !kept ? { sessionId: session, status: result.after.status } : null);
  }
}
