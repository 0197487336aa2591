import * as z from 'zod';
import { isSafeId } from '../core/ids.js';
import { PRIORITIES } from '../core/priority.js';
import { DEFAULT_BRANCH_TEMPLATE } from '../core/branch-template.js';
import { BudgetSchema, DEFAULT_RUN_IDLE_TIMEOUT_MS, PriceSchema, RuntimeFields } from './runtimes.js';

const id = z
  .string()
  .min(1, 'must not be empty')
  .refine(isSafeId, 'must be letters, digits, ".", "_" or "-" (no "/", no "..")');
const positiveInt = z.number().int('must be a whole number').positive('must be greater than 0');
const text = z.string();

/** A strict object: an unknown key is a problem that names it and lists the known ones. */
function closed<T extends z.core.$ZodLooseShape>(shape: T) {
  const known = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? `unknown setting (known: ${known})` : undefined),
  });
}

/** One murmur trigger: the first that fires, in listed order, wins. */
export const TriggerSchema = z.discriminatedUnion(
  'kind',
  [
    closed({ kind: z.literal('queueEmpty') }),
    closed({ kind: z.literal('completionBatch'), threshold: positiveInt }),
    closed({ kind: z.literal('interval'), intervalMs: positiveInt }),
    closed({ kind: z.literal('failureBatch'), threshold: positiveInt }),
  ],
  {
    error: (iss) =>
      `must be one of queueEmpty, completionBatch, interval, failureBatch (found ` +
      `${JSON.stringify((iss.input as { kind?: unknown } | undefined)?.kind)})`,
  },
);

/** Murmur review default timeout (30 minutes, wall-clock). */
export const DEFAULT_REVIEW_TIMEOUT_MS = 30 * 60 * 1000;

/** A context section of a review: `taskSummary` (generated) or the name of a document `org/<name>.md`. */
const contextSection = z
  .string()
  .refine(isSafeId, 'must be taskSummary or the name of a document org/<name>.md (letters, digits, ".", "_", "-")');

/** `teams[].murmur`: triggers (at least one), context sections, review timeout. */
export const MurmurSchema = closed({
  triggers: z.array(TriggerSchema).min(1, 'needs at least one trigger'),
  context: z.array(contextSection).default([]),
  reviewTimeoutMs: positiveInt.default(DEFAULT_REVIEW_TIMEOUT_MS),
});

/**
 * `agents[]`: who can work; `command` (argv) makes the agent a local child process, `runtime` one of the agent
 * CLIs svc runs itself (docs/agent-runtimes.md).
 */
export const AgentSchema = z.looseObject({
  id,
  name: text,
  active: z.boolean().default(true),
  capabilities: z.array(text).default([]),
  team: z.string().min(1).optional(),
  maxConcurrent: positiveInt.default(1),
  command: z.array(z.string().min(1, 'must not be empty')).min(1, 'needs at least the program to run').optional(),
  env: z.record(z.string(), z.string()).optional(),
  /** A workspace of `aof.workspaces`: every task this agent works on gets a git worktree of it. */
  workspace: z.string().min(1).optional(),
  ...RuntimeFields,
});

/** `teams[]`: members, the murmur orchestrator and triggers. */
export const TeamSchema = z.looseObject({
  id,
  name: text,
  members: z.array(text).default([]),
  orchestrator: z.string().min(1).optional(),
  murmur: MurmurSchema.optional(),
  budget: BudgetSchema.optional(),
});

/** `roles.<role>`: the agents that fill a role. */
export const RoleSchema = z.looseObject({
  agents: z.array(text).default([]),
  description: text.optional(),
});

const pathEntry = z.looseObject({ path: text });

/** `memoryPools`: hot, warm and cold memory locations. */
export const MemoryPoolsSchema = z.looseObject({
  hot: pathEntry.optional(),
  warm: z.array(z.looseObject({ id: text, path: text })).default([]),
  cold: pathEntry.optional(),
});

/** `aof.daemon.watchdog`: opt-in health watchdog (docs/configuration.md). */
export const WatchdogSchema = closed({
  enabled: z.boolean().default(false),
  pollIntervalMs: positiveInt.default(60_000),
  restartPolicy: closed({ maxRestarts: positiveInt.default(3), windowMs: positiveInt.default(3_600_000) }).prefault({}),
  alerting: closed({ channel: text.optional(), webhook: text.optional() }).prefault({}),
});

/** `aof.daemon`: exactly the settings of the `aof.daemon` table in docs/configuration.md, with their defaults. */
export const DaemonSettingsSchema = closed({
  pollIntervalMs: positiveInt.default(30_000),
  rescanIntervalMs: positiveInt.default(5_000),
  bootWindowMs: positiveInt.default(10_000),
  maxConcurrentDispatches: positiveInt.default(3),
  maxDispatchesPerDaemon: positiveInt.optional(),
  defaultLeaseTtlMs: positiveInt.default(1_800_000),
  heartbeatTtlMs: positiveInt.default(300_000),
  dutyTtlMs: positiveInt.default(45_000),
  spawnTimeoutMs: positiveInt.default(30_000),
  agentStopGraceMs: positiveInt.default(10_000),
  runExitGraceMs: positiveInt.default(30_000),
  runLogMaxBytes: positiveInt.default(10 * 1024 * 1024),
  runIdleTimeoutMs: positiveInt.default(DEFAULT_RUN_IDLE_TIMEOUT_MS),
  retryBackoffMs: z
    .array(z.number().int('must be a whole number of milliseconds').min(0, 'must be 0 or more'), {
      error: 'must be a list of delays in milliseconds, e.g. [5000, 30000]',
    })
    .min(1, 'must list at least one delay')
    .default([5_000, 30_000]),
  gatewayUrl: z.url({ error: 'must be a URL such as http://127.0.0.1:18789' }).optional(),
  healthPort: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be a port from 1 to 65535')
    .max(65535, 'must be a port from 1 to 65535')
    .optional(),
  webPort: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be a port from 1 to 65535')
    .max(65535, 'must be a port from 1 to 65535')
    .optional(),
  dryRun: z.boolean().default(false),
  maxCheckFailures: positiveInt.default(3),
  watchdog: WatchdogSchema.prefault({}),
});

/** `aof.projects.<id>.sla`: advisory limits; only `alert` is accepted in this phase. */
export const ProjectSlaSchema = z.looseObject({
  defaultMaxInProgressMs: positiveInt.optional(),
  researchMaxInProgressMs: positiveInt.optional(),
  onViolation: z
    .literal('alert', {
      error: (iss) =>
        `only "alert" is supported, found ${JSON.stringify(iss.input)} ` +
        `(block and deadletter are reserved for a later phase)`,
    })
    .default('alert'),
  alerting: z.looseObject({ rateLimitMinutes: z.number().positive('must be greater than 0').default(15) }).prefault({}),
});

/** `aof.workspaces.<name>`: a git repository tasks get worktrees of (docs/workspaces.md). */
export const WorkspaceDefSchema = closed({
  repo: z.string().min(1, 'must not be empty'),
  base: z.string().min(1, 'must not be empty').optional(),
  branch: z.string().min(1, 'must not be empty').default(DEFAULT_BRANCH_TEMPLATE),
  root: z.string().min(1, 'must not be empty').optional(),
  dir: z.string().min(1, 'must not be empty').default('{id}'),
});

/** `aof.checks.<name>`: a command the daemon runs before a task is done (docs/workspaces.md). */
export const CheckDefSchema = closed({
  run: z.array(z.string().min(1, 'must not be empty')).min(1, 'needs at least the program to run'),
  timeoutMs: positiveInt.default(600_000),
  cwd: z.string().min(1, 'must not be empty').optional(),
});

/** The payload shapes a subscription can take (docs/notifications.md, "Formats"). */
export const NOTIFY_FORMATS = ['json', 'slack', 'discord', 'ntfy'] as const;

/** `aof.notify[].retry`: exponential backoff with full jitter, and when to give up (milliseconds). */
export const RetrySchema = closed({
  initialMs: positiveInt.default(2_000),
  maxMs: positiveInt.default(3_600_000),
  giveUpAfterMs: positiveInt.default(86_400_000),
});

/**
 * `aof.notify[]`: one subscription (docs/notifications.md, "Subscriptions"): a `webhook` (http or https) or a
 * `command` (argv, the notification as JSON on stdin), the events it names and optional filters. What the schema
 * cannot say alone (an unknown event, both or neither of webhook and command, duplicate ids, a `secretEnv` not set)
 * is checked by `checkNotify` (org/notify.ts).
 */
export const SubscriptionSchema = closed({
  id,
  webhook: z.string().min(1, 'must not be empty').optional(),
  command: z.array(z.string().min(1, 'must not be empty')).min(1, 'needs at least the program to run').optional(),
  format: z
    .enum(NOTIFY_FORMATS, {
      error: (iss) => `must be one of ${NOTIFY_FORMATS.join(', ')} (found ${JSON.stringify(iss.input)})`,
    })
    .default('json'),
  secretEnv: z.string().min(1, 'must not be empty').optional(),
  events: z.array(z.string().min(1, 'must not be empty')).min(1, 'must name at least one event'),
  teams: z.array(text).optional(),
  agents: z.array(text).optional(),
  projects: z.array(text).optional(),
  priority: z.enum(PRIORITIES).optional(),
  retry: RetrySchema.prefault({}),
  timeoutMs: positiveInt.default(10_000),
  coalesceMs: z.number().int('must be a whole number').min(0, 'must be 0 or more').default(60_000),
  maxInFlight: positiveInt.default(2),
});

/** `aof`: the service's own settings. */
export const AofSchema = z.looseObject({
  daemon: DaemonSettingsSchema.prefault({}),
  workspaces: z.record(id, WorkspaceDefSchema).default({}),
  checks: z.record(id, CheckDefSchema).default({}),
  pricing: z.record(z.string().min(1), PriceSchema).default({}),
  projects: z.record(z.string(), z.looseObject({ sla: ProjectSlaSchema.optional() })).default({}),
  notify: z.array(SubscriptionSchema).default([]),
});

/** The org chart (`org/org-chart.yaml`); unknown keys are kept everywhere except under `aof.daemon`. */
export const OrgChartSchema = z.looseObject({
  schemaVersion: z.literal(1, { error: (iss) => `must be 1 (found ${JSON.stringify(iss.input)})` }),
  agents: z.array(AgentSchema).default([]),
  teams: z.array(TeamSchema).default([]),
  roles: z.record(z.string(), RoleSchema).default({}),
  memoryPools: MemoryPoolsSchema.optional(),
  aof: AofSchema.prefault({}),
});

export type OrgChart = z.output<typeof OrgChartSchema>;
export type Agent = z.output<typeof AgentSchema>;
export type Team = z.output<typeof TeamSchema>;
export type Role = z.output<typeof RoleSchema>;
export type Murmur = z.output<typeof MurmurSchema>;
export type Trigger = z.output<typeof TriggerSchema>;
export type TriggerKind = Trigger['kind'];
export type DaemonSettings = z.output<typeof DaemonSettingsSchema>;
export type WorkspaceDef = z.output<typeof WorkspaceDefSchema>;
export type CheckDef = z.output<typeof CheckDefSchema>;
export type ProjectSla = z.output<typeof ProjectSlaSchema>;
export type Subscription = z.output<typeof SubscriptionSchema>;
export type NotifyFormat = (typeof NOTIFY_FORMATS)[number];
