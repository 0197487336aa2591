import type { Usage } from '../../core/usage.js';
import type { Agent } from '../../org/schema.js';
import type { Permission, RuntimeName } from '../../org/runtimes.js';

/** The `svc mcp` server a run's CLI starts: bound to the run (its task, session and agent). */
export interface McpLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** What a runtime needs to build one run's invocation. */
export interface InvocationContext {
  agent: Pick<Agent, 'id' | 'model' | 'baseUrl' | 'env'> & { permissions: Permission };
  prompt: string;
  /** The run's working directory (the task's worktree, else the task's own work directory). */
  cwd: string;
  /** A private directory of this run for files the invocation needs (an MCP config, a settings file). */
  runDir: string;
  /**
   * A private directory of this agent for this task, kept across its runs: the CLI's own home when it cannot use the
   * user's, so a later run finds its sessions there.
   */
  stateDir: string;
  /** The user's home the CLI keeps its sessions and login in (`HOME` of the environment the run starts from). */
  home: string;
  mcp: McpLaunch;
  /** svc's own tools (`svc_task_complete`, ...), always allowed whatever `permissions` says. */
  svcTools: readonly string[];
  /** The CLI's own session to resume, when the run continues one. */
  resume?: string;
}

/** A file the invocation needs, written into the run's directory before the start. */
export interface InvocationFile {
  path: string;
  content: string;
}

/**
 * How to start the CLI: arguments after the executable, extra environment, files to write first, and whether the
 * prompt goes on stdin (else it is in `args`, and stdin is empty).
 */
export interface Invocation {
  args: string[];
  promptOnStdin: boolean;
  env: Record<string, string>;
  files: InvocationFile[];
}

/** One thing a CLI's stream said, in svc's words. */
export type RunEvent =
  | { kind: 'session'; id: string }
  | { kind: 'model'; model: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool_call'; tool: string; args: string }
  | { kind: 'tool_result'; tool: string; ok: boolean; text: string }
  /** The run's usage so far, cumulative (a later one replaces an earlier one). */
  | { kind: 'usage'; usage: Usage; model?: string }
  | { kind: 'denied'; tool: string; message: string }
  /** An error the CLI reported; `retrying` when it is trying again (it is not progress). */
  | { kind: 'error'; message: string; retrying?: boolean }
  /** The CLI's final word on the run: `ok: false` with its own message when it failed. */
  | { kind: 'result'; ok: boolean; message?: string };

/** Reads a CLI's machine-readable output, one line at a time. */
export interface StreamParser {
  /** The events of one line of output (stdout); a line that is not the CLI's JSON gives none. */
  line(text: string): RunEvent[];
}

/** Where a CLI keeps its sessions: the user's home, the run's working directory and environment. */
export interface SessionPlace {
  home: string;
  /** The agent's directory for this task (`InvocationContext.stateDir`). */
  stateDir?: string;
  cwd: string;
  env: Record<string, string | undefined>;
}

/** One agent CLI: its executable, how it is invoked, how its output reads, where its sessions live. */
export interface Runtime {
  name: RuntimeName;
  /** The executable looked up on PATH when the agent names no `bin`. */
  defaultBin: string;
  invocation(context: InvocationContext): Invocation;
  /**
   * A parser of one run's output, made before the CLI starts. `run` names the session the run resumes and where it
   * lives: a CLI that counts a resumed session's tokens from its first run (Codex) is read against its count so far.
   */
  parser(run?: SessionPlace & { resume?: string; before?: unknown }): StreamParser;
  /**
   * What the parser of a run that resumes `resume` needs to know of the session as it was before the run (Codex: the
   * thread's token total), taken when the run starts and kept in its record, so a parser made after the run, when
   * the session has moved on, reads the run the same way. Absent: the parser needs nothing.
   */
  before?(run: SessionPlace & { resume: string }): unknown;
  /** Whether the CLI still has the files of a session (else the run starts a fresh one). */
  hasSession(where: SessionPlace, id: string): boolean;
}
