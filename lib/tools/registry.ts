import type * as z from 'zod';
import { SvcError } from '../core/errors.js';
import { toDidYouMean } from '../core/suggest.js';
import { DROPPED_KEY_PROBLEM, findDroppedKeys } from '../core/task-issues.js';
import { formatIssues } from '../core/task.js';
import type { OrgChart } from '../org/schema.js';
import type { Status } from '../core/status.js';
import type { Store } from '../store/commit/store.js';

/** A live agent run a call comes from: its task, session and agent (when known). */
export interface RunCaller {
  taskId: string;
  sessionId: string;
  agent?: string | undefined;
}

/** What a tool handler works with. The daemon, the MCP server and tests each build one. */
export interface ToolContext {
  store: Store;
  /** Optional fast reader of task summaries (the daemon's index); handlers fall back to the store. */
  index?: TaskIndexReader;
  /** Called after every successful commit, so an index can update synchronously (read-your-writes). */
  onCommitted?: (taskIds: readonly string[]) => void | Promise<void>;
  /** Optional source of the org chart (the daemon's cached copy); handlers read `org/org-chart.yaml` otherwise. */
  org?: () => Promise<OrgChart | null>;
  /**
   * The daemon: a call that may hand a task on (a completion, a block) starts; the function returned
   * is called before the commit is reported, with the session whose lease it ended (that run is let
   * to finish: docs/scheduler.md, "One run per task"), or null.
   */
  handOn?: (taskId: string) => (handed: { sessionId: string; status: Status } | null) => void;
  /**
   * The live agent run the call comes from, or null: the daemon checks the run session the call
   * carries and the calling process against its live runs; the command line without a daemon, its
   * own. Absent: not known (the operator's decisions then rest on `actor` alone).
   */
  runCaller?: () => Promise<RunCaller | null>;
}

/** One task as the index knows it (frontmatter only). */
export interface TaskSummary {
  id: string;
  title: string;
  status: string;
  priority: string;
  agent?: string;
  createdAt: string;
}

/** Read side of an index: everything `svc_status` needs without reading files. */
export interface TaskIndexReader {
  /** Every task, or those of one status. */
  summaries(status?: Status): Iterable<TaskSummary>;
  /** Tasks per status (counted by file name, so exact before everything is read). */
  counts?(): Record<Status, number>;
  /** Resolves once every task, done and cancelled ones included, has been read. */
  loaded?: Promise<void>;
  /**
   * Brings the index up to date with changes other processes made (read-your-writes across
   * processes); a handler calls it before it reads. Tools that change tasks read the files under
   * the task's lock instead, so they never wait for it.
   */
  refresh?(): Promise<void>;
}

/** A tool: name, description, one zod schema for its params, and the handler. */
export interface ToolDef<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  params: S;
  handler: (params: z.infer<S>, ctx: ToolContext) => Promise<unknown>;
}

/** One call as a client sends it: the tool's name and its params, both unchecked. */
export interface ToolCall {
  tool: unknown;
  params: unknown;
}

/** Looks a tool up, validates its params with its schema, and runs it. */
export async function invokeTool(
  tools: readonly ToolDef[],
  { tool: name, params }: ToolCall,
  ctx: ToolContext,
): Promise<unknown> {
  if (typeof name !== 'string' || !name) {
    throw new SvcError(
      'validation_error',
      'The envelope has no `tool` name.',
      'Send {"tool": "svc_status", "params": {}}.',
    );
  }
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) {
    const names = tools.map((t) => t.name);
    throw new SvcError(
      'unknown_tool',
      `Unknown tool ${JSON.stringify(name)}.${toDidYouMean(name, names)}`,
      `Known tools: ${names.join(', ')}.`,
    );
  }
  const dropped = findDroppedKeys(params ?? {});
  if (dropped.length) {
    throw new SvcError(
      'validation_error',
      `${name}: invalid params:\n${dropped.map((path) => `  ${path}: ${DROPPED_KEY_PROBLEM}`).join('\n')}`,
      'Rename the key (for example to "proto"); nothing was changed.',
    );
  }
  const parsed = tool.params.safeParse(params ?? {});
  if (!parsed.success) {
    throw new SvcError(
      'validation_error',
      `${name}: invalid params:\n${formatIssues(parsed.error.issues)}`,
      `See the ${name} parameters in docs/agent-tools.md.`,
    );
  }
  return tool.handler(parsed.data, ctx);
}
