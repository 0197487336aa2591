import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SpawnError, type Adapter, type RunEnd, type SpawnRequest, type SpawnRun } from '../core/spawn.js';
import { isProcessAlive, readProcessInfo } from '../fs/process.js';
import type { OrgChart } from '../org/schema.js';

/** Options of the command adapter. */
export interface CommandAdapterOptions {
  root: string;
  socketPath: string;
  loadOrg: () => Promise<OrgChart | null>;
  /** Environment every agent process starts from (PATH, HOME, ...). */
  baseEnv: Record<string, string | undefined>;
  /** File the agents' stdout and stderr are appended to. */
  logFile: string;
  /** Extra variables, e.g. how to call svc (`SVC_BIN`, `SVC_NODE`). */
  extraEnv?: Record<string, string>;
  /**
   * Where each running agent's pid is recorded (`<task id>@<session>`), so a daemon restarted
   * while it runs can still end it when its task is cancelled. None when absent.
   */
  runsDir?: string;
  /** How long an agent gets after SIGTERM before SIGKILL when its task is cancelled (10 s). */
  stopGraceMs?: () => number;
  /**
   * Do not keep this process alive for the agents (the daemon: a stop never waits for them, and
   * their leases survive it). By default a process waits for the agents it started, as
   * `svc scheduler run --active` does.
   */
  unref?: boolean;
}

/** The command adapter, with what the daemon needs beyond `spawn`. */
export interface CommandAdapter extends Adapter {
  /** Agent processes this adapter started that are still running. */
  children(): number;
  /**
   * Ends the agents working on `taskId` (its task was cancelled): SIGTERM to the agent's process
   * group, SIGKILL after the grace period. Agents of a previous daemon are found through `runsDir`
   * and signalled only if `/proc` shows they still run that task's session. Returns how many.
   */
  cancel(taskId: string): number;
  /** Kills at once the agents whose SIGKILL is pending; leaves every other agent running. */
  close(): void;
  /** Kills every running agent (tests). */
  stop(): void;
}

/**
 * Runs org chart agents that have `command: [argv...]` as local processes, detached in their own
 * process group: the task in the environment (`SVC_TASK_ID`, `SVC_TASK_TITLE`, `SVC_TASK_BRIEF`,
 * `SVC_SESSION_ID`, `SVC_SOCKET`, `SVC_HOME`, `SVC_AGENT`, `SVC_TASK_GATE`), the prompt on stdin
 * (a file, so no pipe ties the agent to the daemon), stdout and stderr appended to `logFile`.
 * The run ends when the process exits.
 */
export function createCommandAdapter(options: CommandAdapterOptions): CommandAdapter {
  const running = new Set<Run>();
  sweepRuns(options.runsDir);
  const pending = new Map<number, NodeJS.Timeout>(); // pids sent SIGTERM, and their SIGKILL timers
  const terminate = (pid: number): boolean => {
    if (pending.has(pid)) return true;
    if (!signalGroup(pid, 'SIGTERM')) return false;
    const timer = setTimeout(() => {
      pending.delete(pid);
      if (isProcessAlive(pid)) signalGroup(pid, 'SIGKILL');
    }, options.stopGraceMs?.() ?? 10_000);
    pending.set(pid, timer);
    return true;
  };
  return {
    kind: 'command',
    children: () => running.size,
    cancel(taskId) {
      const pids = [...running].filter((run) => run.taskId === taskId).map((run) => run.pid);
      pids.push(...adoptedRuns(options.runsDir, taskId, running));
      return pids.filter(terminate).length;
    },
    close() {
      for (const [pid, timer] of pending) {
        clearTimeout(timer);
        signalGroup(pid, 'SIGKILL');
      }
      pending.clear();
    },
    stop() {
      for (const run of running) signalGroup(run.pid, 'SIGKILL');
    },
    async spawn(request: SpawnRequest): Promise<SpawnRun> {
      const org = await options.loadOrg();
      const agent = org?.agents.find((a) => a.id === request.agent);
      const argv = agent?.command;
      if (!argv?.length) throw new SpawnError('agent_unavailable', `agent ${request.agent} has no command in the org chart`);
      const env = { ...options.baseEnv, ...options.extraEnv, ...agent?.env, ...toTaskEnv(options, request) };
      const child = await start(argv, env, request.prompt, options);
      const run: Run = { taskId: request.taskId, pid: child.pid!, record: recordRun(options.runsDir, request, child.pid!) };
      running.add(run);
      const ended = new Promise<RunEnd>((resolve) => {
        child.on('exit', (code, signal) => {
          running.delete(run);
          forget(run.record);
          const timer = pending.get(run.pid);
          if (timer) {
            clearTimeout(timer);
            pending.delete(run.pid);
          }
          resolve(code === 0 ? { ok: true } : { ok: false, reason: 'ended_without_completion', error: signal ? `killed by ${signal}` : `exit code ${code}` });
        });
      });
      return { ended };
    },
  };
}

// --- internal ---

interface Run {
  taskId: string;
  pid: number;
  /** The file recording its pid, when `runsDir` is set. */
  record: string | null;
}

function toTaskEnv(options: CommandAdapterOptions, request: SpawnRequest): Record<string, string> {
  return {
    SVC_HOME: options.root, SVC_SOCKET: options.socketPath, SVC_TASK_ID: request.taskId, SVC_TASK_TITLE: request.task.title,
    SVC_TASK_BRIEF: request.task.body, SVC_SESSION_ID: request.sessionId, SVC_AGENT: request.agent,
    SVC_TASK_GATE: request.task.gate?.current ?? '',
  };
}

/**
 * Starts the agent detached (its own process group) with the prompt as stdin: a private file,
 * written, unlinked, handed over as a descriptor (read from offset 0). Output goes straight to the
 * log file, so nothing but the exit ties the agent to this process.
 */
function start(argv: readonly string[], env: Record<string, string | undefined>, prompt: string, options: CommandAdapterOptions): Promise<ChildProcess> {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = openSync(options.logFile, 'a');
  const input = openPrompt(dirname(options.logFile), prompt);
  const release = () => (closeSync(log), closeSync(input));
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: options.root, env, stdio: [input, log, log], detached: true });
    if (options.unref) child.unref();
    child.once('spawn', () => {
      release();
      resolve(child);
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      release();
      reject(new SpawnError(err.code === 'ENOENT' || err.code === 'EACCES' ? 'agent_unavailable' : 'spawn_failed', `cannot run ${argv[0]}: ${err.message}`, { cause: err }));
    });
  });
}

function openPrompt(dir: string, prompt: string): number {
  const path = join(dir, `.prompt-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const fd = openSync(path, 'wx+', 0o600);
  try {
    unlinkSync(path);
    writeSync(fd, prompt, 0, 'utf8'); // a positional write: the offset stays at 0 for the agent
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** SIGTERM/SIGKILL to the agent's process group (it was started detached); false when it is gone. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

function recordRun(dir: string | undefined, request: SpawnRequest, pid: number): string | null {
  if (!dir) return null;
  const file = join(dir, `${request.taskId}@${request.sessionId}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${pid}\n`);
    return file;
  } catch {
    return null; // a record is a convenience: the run goes on without one
  }
}

function forget(file: string | null): void {
  if (!file) return;
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/**
 * Runs of `taskId` recorded by an earlier daemon (not among `running`) whose process is alive and
 * still runs that task's session (its `SVC_TASK_ID` and `SVC_SESSION_ID` in `/proc`). Records of
 * runs that are gone are removed.
 */
function adoptedRuns(dir: string | undefined, taskId: string, running: ReadonlySet<Run>): number[] {
  if (!dir) return [];
  const mine = new Set([...running].map((run) => run.record));
  const found: number[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.startsWith(`${taskId}@`));
  } catch {
    return [];
  }
  for (const name of names) {
    const file = join(dir, name);
    if (mine.has(file)) continue;
    const pid = Number.parseInt(readFileOr(file), 10);
    const env = Number.isSafeInteger(pid) && pid > 0 && isProcessAlive(pid) ? readProcessInfo(pid)?.env : null;
    if (env && env.SVC_TASK_ID === taskId && env.SVC_SESSION_ID === name.slice(taskId.length + 1)) found.push(pid);
    else forget(file);
  }
  return found;
}

/** Removes the records of runs whose process is gone (they ended while no daemon watched). */
function sweepRuns(dir: string | undefined): void {
  let names: string[];
  try {
    names = dir ? readdirSync(dir) : [];
  } catch {
    return;
  }
  for (const name of names) {
    const at = name.indexOf('@');
    if (at > 0) adoptedRuns(dir, name.slice(0, at), new Set());
  }
}

function readFileOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
