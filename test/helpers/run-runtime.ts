// Runs one agent CLI as a runtime would (its invocation, a bare environment, its stream parsed), outside the daemon:
// the runtime tests check each CLI's invocation and stream against the scripted model server with it.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { InvocationContext, Runtime, RunEvent } from '../../lib/adapters/runtimes/runtime.js';
import { svcBinPath } from '../../lib/core/package-root.js';

/** What one run of a CLI gave: its events, raw stdout lines, stderr, how it exited. */
export interface RuntimeRunResult {
  events: RunEvent[];
  lines: string[];
  stderr: string;
  code: number | null;
  signal: string | null;
  timedOut: boolean;
}

/** The `svc mcp` launch for a root (no run binding beyond `SVC_HOME`, and what `extraEnv` adds). */
export function svcMcpLaunch(root: string, extraEnv: Record<string, string> = {}): InvocationContext['mcp'] {
  return { command: process.execPath, args: [svcBinPath(), 'mcp'], env: { SVC_HOME: root, ...extraEnv } };
}

/**
 * Starts `bin` with the runtime's invocation for `context` in its own process group, with only PATH, HOME,
 * TERM=dumb, the invocation's variables and `env`; the group is killed after `timeoutMs` (default 60 s).
 */
export async function runRuntime(
  runtime: Runtime,
  run: { bin: string; context: InvocationContext; env?: Record<string, string>; timeoutMs?: number },
): Promise<RuntimeRunResult> {
  const invocation = runtime.invocation(run.context);
  for (const file of invocation.files) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.content, { mode: 0o600 });
  }
  mkdirSync(run.context.cwd, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: run.context.home,
    TERM: 'dumb',
    ...run.context.agent.env,
    ...invocation.env,
    ...run.env,
  };
  const child = spawn(run.bin, invocation.args, {
    cwd: run.context.cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdin.end(invocation.promptOnStdin ? run.context.prompt : '');
  const { home, cwd, resume } = run.context;
  const parser = runtime.parser({ home, cwd, env, resume });
  const result: RuntimeRunResult = { events: [], lines: [], stderr: '', code: null, signal: null, timedOut: false };
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      result.lines.push(line);
      result.events.push(...parser.line(line));
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    result.stderr += chunk.toString('utf8');
  });
  const timer = setTimeout(() => {
    result.timedOut = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone already
    }
  }, run.timeoutMs ?? 60_000);
  await new Promise<void>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (pending) {
        result.lines.push(pending);
        result.events.push(...parser.line(pending));
      }
      result.code = code;
      result.signal = signal;
      resolve();
    }),
  );
  return result;
}

/** A fresh directory layout for one CLI run under `dir`: home, work directory, run directory, agent's state. */
export function runDirs(dir: string): { home: string; cwd: string; runDir: string; stateDir: string } {
  const dirs = {
    home: join(dir, 'home'),
    cwd: join(dir, 'work'),
    runDir: join(dir, 'run'),
    stateDir: join(dir, 'state'),
  };
  for (const path of Object.values(dirs)) mkdirSync(path, { recursive: true });
  return dirs;
}
