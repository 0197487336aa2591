import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SpawnError, type Adapter, type RunEnd, type SpawnRequest, type SpawnRun } from '../core/spawn.js';
import { toStorableText } from '../core/text.js';
import type { OrgChart } from '../org/schema.js';
import { toPaths } from '../store/disk/paths.js';
import { DEFAULT_RUN_LOG_MAX_BYTES } from '../store/records/run-logs.js';
import { removeBriefFile, toBriefEnv, writeBriefFile } from './brief-file.js';
import { openRunOutput, type RunOutput } from './run-output.js';
import { endScratchDir, makeScratchDir } from './scratch.js';
import { createRunRegistry, type Run, type RunRegistry } from './runs.js';
import { describeError } from '../core/errors.js';

/** Options of the command adapter. */
export interface CommandAdapterOptions {
  root: string;
  socketPath: string;
  loadOrg: () => Promise<OrgChart | null>;
  /** Environment every agent process starts from (PATH, HOME, ...). */
  baseEnv: Record<string, string | undefined>;
  /** The shared log: a line at the start and end of each run, naming the run's own log (`data/logs/runs/`). */
  logFile: string;
  /** The cap of one run's log (`aof.daemon.runLogMaxBytes`, 10 MiB). */
  runLogMaxBytes?: () => number;
  /** Extra variables, e.g. how to call svc (`SVC_BIN`, `SVC_NODE`). */
  extraEnv?: Record<string, string>;
  /**
   * Where each running agent's pid is recorded (`<task id>@<session>`), so a daemon restarted
   * while it runs can still end it. None when absent.
   */
  runsDir?: string;
  /** How long an agent gets after SIGTERM before SIGKILL when its run is ended (10 s). */
  stopGraceMs?: () => number;
  /** A task's last run is confirmed gone (its process group is empty). */
  onGone?: (run: Run) => void;
  /**
   * Do not keep this process alive for the agents (the daemon: a stop never waits for them, and
   * their leases survive it). By default a process waits for the agents it started, as
   * `svc scheduler run --active` does.
   */
  unref?: boolean;
}

/** The command adapter, with what the daemon needs beyond `spawn`. */
export interface CommandAdapter extends Adapter {
  /** Every local agent run not yet confirmed gone: started here, or adopted from an earlier daemon. */
  runs: RunRegistry;
  /** Kills at once the agents whose SIGKILL is pending; leaves every other agent running. */
  close(): void;
  /** Kills every running agent (tests). */
  stop(): void;
}

/**
 * Runs org chart agents that have `command: [argv...]` as local processes, detached in their own
 * process group: the task in the environment (`SVC_TASK_ID`, `SVC_TASK_TITLE`, `SVC_TASK_BRIEF_FILE`,
 * `SVC_TASK_BRIEF`, `SVC_SESSION_ID`, `SVC_SOCKET`, `SVC_HOME`, `SVC_AGENT`, `SVC_TASK_GATE`), the
 * brief in a private file (`data/briefs/<task id>@<session>`, removed once the run is gone), the
 * prompt on stdin (a file, so no pipe ties the agent to the daemon), stdout and stderr to the
 * run's own log (`data/logs/runs/<task id>/<session>-<n>.log`, capped, the tail kept). Its working
 * directory is the task's worktree, else a scratch directory of the run's own (`makeScratchDir`).
 * The run ends when the process exits; it is gone once no process of its group is left.
 */
export function createCommandAdapter(options: CommandAdapterOptions): CommandAdapter {
  const briefsDir = toPaths(options.root).briefs;
  const runs = createRunRegistry({
    dir: options.runsDir,
    briefsDir,
    stopGraceMs: () => options.stopGraceMs?.() ?? 10_000,
    ...(options.onGone ? { onGone: options.onGone } : {}),
  });
  return {
    kind: 'command',
    runs,
    close: () => runs.close(),
    stop: () => runs.killAll(),
    async spawn(request: SpawnRequest): Promise<SpawnRun> {
      const org = await options.loadOrg();
      const agent = org?.agents.find((a) => a.id === request.agent);
      const argv = agent?.command;
      if (!argv?.length)
        throw new SpawnError('agent_unavailable', `agent ${request.agent} has no command in the org chart`);
      const brief = writeBriefFile(
        briefsDir,
        { taskId: request.taskId, sessionId: request.sessionId },
        request.task.body,
      );
      const scratch = request.workspace ? null : makeScratchDir(options.root, request.taskId, request.sessionId);
      let output: RunOutput;
      let child: ChildProcess;
      try {
        const env = { ...options.baseEnv, ...options.extraEnv, ...agent?.env, ...toTaskEnv(options, request, brief) };
        output = openRunOutput(
          {
            root: options.root,
            logFile: options.logFile,
            maxBytes: () => options.runLogMaxBytes?.() ?? DEFAULT_RUN_LOG_MAX_BYTES,
          },
          request,
        );
        child = await start(
          { argv, env, prompt: request.prompt },
          { ...options, cwd: request.workspace?.path ?? scratch! },
          output,
        );
      } catch (err) {
        removeBriefFile(briefsDir, request.taskId, request.sessionId);
        if (scratch) endScratchDir(scratch);
        throw err;
      }
      const run = runs.add(request.taskId, request.sessionId, child.pid!);
      const ended = new Promise<RunEnd>((resolve) => {
        child.on('exit', (code, signal) => {
          const kept = scratch !== null && endScratchDir(scratch);
          output.ended(
            `${signal ? `killed by ${signal}` : `exit code ${code}`}` +
              `${kept ? `; its files are kept in ${scratch}` : ''}`,
          );
          runs.exited(run);
          const how = signal ? { signal } : { exitCode: code ?? 0 };
          resolve(
            code === 0
              ? { ok: true, ...how }
              : {
                  ok: false,
                  reason: 'ended_without_completion',
                  error: signal ? `killed by ${signal}` : `exit code ${code}`,
                  ...how,
                },
          );
        });
      });
      return { ended };
    },
  };
}

// --- internal ---

/** The task's variables; a NUL that an older task kept is escaped, for no variable can carry one. */
function toTaskEnv(options: CommandAdapterOptions, request: SpawnRequest, brief: string): Record<string, string> {
  return {
    SVC_HOME: options.root,
    SVC_SOCKET: options.socketPath,
    SVC_TASK_ID: request.taskId,
    SVC_TASK_TITLE: toStorableText(request.task.title),
    SVC_TASK_BRIEF_FILE: brief,
    SVC_TASK_BRIEF: toBriefEnv(request.task.body, brief),
    SVC_SESSION_ID: request.sessionId,
    SVC_AGENT: request.agent,
    SVC_TASK_GATE: request.task.gate?.current ?? '',
    ...(request.workspace ? { SVC_WORKSPACE: request.workspace.path, SVC_BRANCH: request.workspace.branch } : {}),
  };
}

/**
 * Starts the agent detached (its own process group) with the prompt as stdin: a private file,
 * written, unlinked, handed over as a descriptor (read from offset 0). Output goes straight to the
 * log file, so nothing but the exit ties the agent to this process.
 */
function start(
  command: { argv: readonly string[]; env: Record<string, string | undefined>; prompt: string },
  options: CommandAdapterOptions & { cwd: string },
  output: RunOutput,
): Promise<ChildProcess> {
  const { argv, env, prompt } = command;
  const log = output.fd;
  let input: number;
  try {
    mkdirSync(dirname(options.logFile), { recursive: true });
    input = openPrompt(dirname(options.logFile), prompt);
  } catch (err) {
    closeSync(log);
    output.failed(describeError(err));
    throw err;
  }
  const release = () => {
    closeSync(log);
    closeSync(input);
  };
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd, env, stdio: [input, log, log], detached: true });
    if (options.unref) child.unref();
    child.once('spawn', () => {
      release();
      resolve(child);
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      release();
      output.failed(err.message);
      reject(
        new SpawnError(
          err.code === 'ENOENT' || err.code === 'EACCES' ? 'agent_unavailable' : 'spawn_failed',
          `cannot run ${argv[0]}: ${err.message}`,
          { cause: err },
        ),
      );
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
