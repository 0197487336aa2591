import type { ChildProcess } from 'node:child_process';
import { dirname } from 'node:path';
import { startAgentProcess } from './process-start.js';
import type { RuntimeHooks } from './runtime-hooks.js';
import { startRuntimeRun, type RuntimeRun } from './runtime-run.js';
import { SpawnError, type Adapter, type RunEnd, type SpawnRequest, type SpawnRun } from '../core/spawn.js';
import { toStorableText } from '../core/text.js';
import type { OrgChart } from '../org/schema.js';
import { toPaths } from '../store/disk/paths.js';
import { DEFAULT_RUN_LOG_MAX_BYTES } from '../store/records/run-logs.js';
import { removeBriefFile, toBriefEnv, writeBriefFile } from './brief-file.js';
import { openRunOutput, type RunOutput } from './run-output.js';
import { endScratchDir, makeScratchDir } from './scratch.js';
import { createRunRegistry, type Run, type RunRegistry } from './runs.js';

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
  /** svc's own tools, always allowed to an agent runtime (docs/agent-runtimes.md). */
  svcTools?: readonly string[];
  /** What the owner does with the runs of agent CLIs: pricing, budgets, recording their usage and session. */
  runtimeHooks?: RuntimeHooks;
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
      if (!argv?.length && !agent?.runtime)
        throw new SpawnError('agent_unavailable', `agent ${request.agent} has neither a command nor a runtime`);
      const brief = writeBriefFile(
        briefsDir,
        { taskId: request.taskId, sessionId: request.sessionId },
        request.task.body,
      );
      const scratch =
        request.workspace || agent?.runtime ? null : makeScratchDir(options.root, request.taskId, request.sessionId);
      let output: RunOutput;
      let child: ChildProcess;
      let cli: RuntimeRun | null = null;
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
        if (agent?.runtime) {
          cli = await startRuntimeRun(
            {
              root: options.root,
              env,
              svc: { node: options.extraEnv?.SVC_NODE ?? process.execPath, bin: options.extraEnv?.SVC_BIN ?? 'svc' },
              svcTools: options.svcTools ?? [],
              org,
              agent,
              output,
              promptDir: dirname(options.logFile),
              unref: options.unref,
              hooks: options.runtimeHooks ?? {},
              end: (why) => {
                output.note(`ending the run: ${why}`);
                runs.end(request.taskId, { spare: (other) => other.sessionId !== request.sessionId });
              },
            },
            request,
          );
          child = cli.child;
        } else
          child = await startAgentProcess(
            { argv: argv!, env, cwd: request.workspace?.path ?? scratch!, prompt: request.prompt },
            {
              stdout: output.fd,
              stderr: output.fd,
              promptDir: dirname(options.logFile),
              unref: options.unref,
              failed: output.failed,
            },
          );
      } catch (err) {
        removeBriefFile(briefsDir, request.taskId, request.sessionId);
        if (scratch) endScratchDir(scratch);
        throw err;
      }
      const run = runs.add(request.taskId, request.sessionId, child.pid!);
      const ended = new Promise<RunEnd>((resolve) => {
        child.on('exit', (code, signal) => {
          if (cli)
            return void cli.ended({ code, signal }).then((end) => {
              const how = signal ? `killed by ${signal}` : `exit code ${code}`;
              output.ended(`${how}${end.ok || end.error === how ? '' : `; ${end.error}`}`);
              runs.exited(run);
              resolve(end);
            });
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
