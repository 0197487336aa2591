import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SpawnError, type Adapter, type RunEnd, type SpawnRequest, type SpawnRun } from '../core/spawn.js';
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
}

/**
 * Runs org chart agents that have `command: [argv...]` as local child processes: the task in the
 * environment (`SVC_TASK_ID`, `SVC_TASK_TITLE`, `SVC_TASK_BRIEF`, `SVC_SESSION_ID`, `SVC_SOCKET`,
 * `SVC_HOME`, `SVC_AGENT`, `SVC_TASK_GATE`) and the prompt on stdin. The run ends when the process exits.
 */
export function createCommandAdapter(options: CommandAdapterOptions): Adapter & { children(): number; stop(): void } {
  const running = new Set<ChildProcess>();
  return {
    kind: 'command',
    children: () => running.size,
    /** Kills the running agent processes. The daemon never calls it: leases outlive a restart. */
    stop() {
      for (const child of running) child.kill('SIGTERM');
    },
    async spawn(request: SpawnRequest): Promise<SpawnRun> {
      const org = await options.loadOrg();
      const argv = org?.agents.find((agent) => agent.id === request.agent)?.command;
      if (!argv?.length) throw new SpawnError('agent_unavailable', `agent ${request.agent} has no command in the org chart`);
      const env = { ...options.baseEnv, ...options.extraEnv, ...org?.agents.find((a) => a.id === request.agent)?.env, ...toTaskEnv(options, request) };
      const child = await start(argv, env, options);
      running.add(child);
      child.stdin?.end(request.prompt);
      child.stdin?.on('error', () => undefined);
      const ended = new Promise<RunEnd>((resolve) => {
        child.on('exit', (code, signal) => {
          running.delete(child);
          resolve(code === 0 ? { ok: true } : { ok: false, reason: 'ended_without_completion', error: signal ? `killed by ${signal}` : `exit code ${code}` });
        });
      });
      return { ended };
    },
  };
}

// --- internal ---

function toTaskEnv(options: CommandAdapterOptions, request: SpawnRequest): Record<string, string> {
  return {
    SVC_HOME: options.root, SVC_SOCKET: options.socketPath, SVC_TASK_ID: request.taskId, SVC_TASK_TITLE: request.task.title,
    SVC_TASK_BRIEF: request.task.body, SVC_SESSION_ID: request.sessionId, SVC_AGENT: request.agent,
    SVC_TASK_GATE: request.task.gate?.current ?? '',
  };
}

function start(argv: readonly string[], env: Record<string, string | undefined>, options: CommandAdapterOptions): Promise<ChildProcess> {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = openSync(options.logFile, 'a');
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: options.root, env, stdio: ['pipe', log, log] });
    child.once('spawn', () => {
      closeSync(log);
      resolve(child);
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      closeSync(log);
      reject(new SpawnError(err.code === 'ENOENT' || err.code === 'EACCES' ? 'agent_unavailable' : 'spawn_failed', `cannot run ${argv[0]}: ${err.message}`, { cause: err }));
    });
  });
}
