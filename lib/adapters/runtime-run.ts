import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { SpawnError, type RunEnd, type SpawnRequest } from '../core/spawn.js';
import type { Agent, OrgChart } from '../org/schema.js';
import type { Permission, RuntimeName } from '../org/runtimes.js';
import { toDaemonSettings } from '../org/org-chart.js';
import { toPaths } from '../store/disk/paths.js';
import { startAgentProcess } from './process-start.js';
import type { RunOutput } from './run-output.js';
import { RUNTIMES_BY_NAME } from './runtimes/index.js';
import type { Runtime, SessionPlace } from './runtimes/runtime.js';
import { makeScratchDir } from './scratch.js';
import { toRunEnd } from './runtime-end.js';
import { writeRuntimeRecord } from './runtime-record.js';
import type { RuntimeHooks, RuntimeRunRef } from './runtime-hooks.js';
import { watchStream } from './stream-watch.js';
import { readRuntimeSession } from '../store/changes/usage.js';
import { openSync, appendFileSync } from 'node:fs';

/** What starting one run of an agent CLI needs from the command adapter. */
export interface RuntimeStart {
  root: string;
  env: Record<string, string | undefined>;
  /** How to start `svc mcp`: the Node executable and svc's entry (`SVC_NODE`, `SVC_BIN`). */
  svc: { node: string; bin: string };
  svcTools: readonly string[];
  org: OrgChart | null;
  agent: Agent;
  output: RunOutput;
  promptDir: string;
  unref?: boolean | undefined;
  hooks: RuntimeHooks;
  /** Ends the run's process group (SIGTERM, then SIGKILL after the grace), as a cancel does. */
  end: (why: string) => void;
}

/** A started run of a CLI: its process, and its end as the scheduler reads it. */
export interface RuntimeRun {
  child: ChildProcess;
  ended: (exit: { code: number | null; signal: string | null }) => Promise<RunEnd>;
}

/**
 * Starts one run of an agent CLI (docs/agent-runtimes.md): its invocation built by its runtime (the session resumed
 * when the agent has one for this task), its stdout to a stream file beside the run log, parsed as it grows, and a
 * readable line per event in the run log; the run ended when it is idle past `runIdleTimeoutMs` or its budget is spent.
 */
export async function startRuntimeRun(start: RuntimeStart, request: SpawnRequest): Promise<RuntimeRun> {
  const { agent, output } = start;
  const runtime = RUNTIMES_BY_NAME[agent.runtime as RuntimeName] as Runtime | undefined;
  if (!runtime)
    throw new SpawnError('agent_unavailable', `agent ${agent.id} names an unknown runtime ${agent.runtime}`);
  const paths = toPaths(start.root);
  const env: Record<string, string | undefined> = { ...start.env, ...agent.env };
  const cwd = request.workspace?.path ?? makeScratchDir(start.root, request.taskId, `agent-${agent.id}`);
  const runDir = join(paths.runtimes, `${request.taskId}@${request.sessionId}`);
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const stateDir = paths.runtimeState(request.taskId, agent.id);
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const home = env.HOME ?? homedir();
  const resume = toResume({ runtime, agent, request }, { home, cwd, env, stateDir }, output.path);
  const prompt = resume ? (request.resumePrompt ?? request.prompt) : request.prompt;
  const ref: RuntimeRunRef = {
    taskId: request.taskId,
    sessionId: request.sessionId,
    run: basename(output.path, '.log'),
    agent: agent.id,
    runtime: runtime.name,
  };
  const rawPath = output.path.replace(/\.log$/, '.stream.jsonl');
  const record = {
    ...ref,
    rawPath,
    model: agent.model ?? null,
    home,
    cwd,
    stateDir,
    ...(resume ? { resume } : {}),
  };
  const invocation = runtime.invocation({
    agent: {
      id: agent.id,
      model: agent.model,
      baseUrl: agent.baseUrl,
      env: agent.env,
      permissions: (agent.permissions ?? 'edit') as Permission,
    },
    prompt,
    cwd,
    runDir,
    stateDir,
    home,
    mcp: {
      command: start.svc.node,
      args: [start.svc.bin, 'mcp'],
      env: {
        SVC_HOME: start.root,
        SVC_RUN_TASK_ID: request.taskId,
        SVC_RUN_SESSION_ID: request.sessionId,
        SVC_RUN_AGENT: agent.id,
      },
    },
    svcTools: start.svcTools,
    ...(resume ? { resume } : {}),
  });
  for (const file of invocation.files) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.content, { mode: 0o600 });
  }
  // made before the CLI starts: a resumed session's totals so far are read from the CLI's files as they were
  // taken before the CLI starts: a resumed session as it was, kept in the record for a parser made after the run
  const before = resume && runtime.before ? runtime.before({ home, cwd, env, stateDir, resume }) : undefined;
  writeRuntimeRecord(runDir, { ...record, ...(before !== undefined ? { before } : {}) });
  const parser = runtime.parser({ home, cwd, env, stateDir, ...(resume ? { resume } : {}), before });
  const raw = openSync(rawPath, 'a', 0o600);
  const child = await startAgentProcess(
    {
      argv: [toExecutable(start.root, agent.bin ?? runtime.defaultBin), ...invocation.args],
      env: { ...env, ...toTaskEnv(request), ...invocation.env },
      cwd,
      prompt: invocation.promptOnStdin ? prompt : null,
    },
    { stdout: raw, stderr: output.fd, promptDir: start.promptDir, unref: start.unref, failed: output.failed },
  );
  const idleMs = agent.runIdleTimeoutMs ?? toDaemonSettings(start.org).runIdleTimeoutMs;
  let hung = false;
  let ending: string | null = null;
  const end = (why: string) => {
    if (ending !== null) return; // once: later usage or silence does not signal it again
    ending = why;
    start.end(why);
  };
  let stopping: Promise<unknown> = Promise.resolve();
  const { price, onUsage } = start.hooks;
  const watch = watchStream({
    rawPath,
    logPath: output.path,
    parser,
    idleMs,
    ...(price ? { price: (usage, model) => price(usage, model ?? agent.model ?? null) } : {}),
    onIdle: () => {
      if (ending !== null) return;
      hung = true;
      end(`no output for ${Math.round(idleMs / 1000)} s (runIdleTimeoutMs)`);
    },
    onEvent: (event) => {
      if (event.kind !== 'usage' || !onUsage) return;
      stopping = stopping.then(async () => {
        if (ending !== null) return;
        const verdict = await onUsage(ref, event.usage).catch(() => 'continue' as const);
        if (verdict === 'stop') end('its budget is spent');
      });
    },
  });
  return {
    child,
    ended: async (exit) => {
      const summary = watch.finish();
      await stopping;
      await start.hooks
        .onRecord?.({
          ...ref,
          model: summary.model ?? agent.model ?? null,
          cliSession: summary.session,
          usage: summary.usage,
        })
        .catch(() => undefined);
      rmSync(runDir, { recursive: true, force: true });
      return toRunEnd(summary, { ...exit, hung, idleMs, ...(ending && !hung ? { stopped: ending } : {}) });
    },
  };
}

// --- internal ---

/** The CLI session to resume: the agent's for this task, while the CLI still has its files (else a fresh one, said). */
function toResume(
  run: { runtime: Runtime; agent: Agent; request: SpawnRequest },
  where: SessionPlace,
  logPath: string,
): string | null {
  const { runtime, agent, request } = run;
  if (agent.resume === false) return null;
  const earlier = readRuntimeSession(request.task.metadata, agent.id);
  if (!earlier || earlier.runtime !== runtime.name) return null;
  if (runtime.hasSession(where, earlier.id)) {
    say(logPath, `[resume] continuing the CLI's session ${earlier.id}`);
    return earlier.id;
  }
  say(logPath, `[resume] the CLI's session ${earlier.id} cannot be resumed (its files are gone): starting a fresh one`);
  return null;
}

function say(path: string, line: string): void {
  try {
    appendFileSync(path, `${line}\n`);
  } catch {
    // the log is a convenience here
  }
}

/** A `bin` with a `/` in it is a path, taken from the svc root when relative; a bare name is looked up on PATH. */
function toExecutable(root: string, bin: string): string {
  return bin.includes('/') ? resolve(root, bin) : bin;
}

function toTaskEnv(request: SpawnRequest): Record<string, string> {
  return { SVC_TASK_ID: request.taskId, SVC_SESSION_ID: request.sessionId };
}
