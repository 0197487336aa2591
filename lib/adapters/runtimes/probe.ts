import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { RuntimeName } from '../../org/runtimes.js';
import type { Agent } from '../../org/schema.js';
import { RUNTIMES_BY_NAME } from './index.js';

/** How long `<bin> --version` may take before the CLI is reported as not answering. */
export const PROBE_TIMEOUT_MS = 10_000;

/** What to probe: the executable (a name looked up on PATH, or a path) and the environment it runs in. */
export interface ProbeOptions {
  bin: string;
  env: Record<string, string | undefined>;
  /** Where a relative `bin` path is resolved from (the svc home). */
  cwd: string;
  timeoutMs?: number;
}

/** Whether a CLI was found, its path and the version it printed, or the problem and what to do. */
export interface RuntimeProbe {
  bin: string;
  found: boolean;
  path?: string;
  version?: string;
  problem?: string;
  hint?: string;
}

/** One runtime agent of the org chart and its CLI's probe. */
export interface RuntimeCheck extends RuntimeProbe {
  agent: string;
  runtime: RuntimeName;
}

/** The npm package of each CLI, for the hint of a CLI not found. */
export const RUNTIME_PACKAGES: Readonly<Record<RuntimeName, string>> = {
  'claude-code': '@anthropic-ai/claude-code',
  codex: '@openai/codex',
  gemini: '@google/gemini-cli',
};

/**
 * Finds `bin` (on the environment's PATH unless it is a path) and runs `<bin> --version` with a timeout: a CLI that
 * is missing, fails or hangs is reported, never waited on past `timeoutMs`.
 */
export async function probeRuntime(options: ProbeOptions): Promise<RuntimeProbe> {
  const { bin, env } = options;
  const path = findExecutable(options);
  if (!path) {
    const where = bin.includes('/') ? 'is not an executable file' : `is not on PATH (${env.PATH || 'PATH is empty'})`;
    return { bin, found: false, problem: `${bin} ${where}` };
  }
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const run = await runVersion(path, { env, timeoutMs });
  if (run.timedOut)
    return { bin, found: true, path, problem: `\`${bin} --version\` did not answer within ${timeoutMs / 1000} s` };
  const version = firstLine(run.stdout);
  if (run.code !== 0 || !version) {
    const said = firstLine(run.stderr) || firstLine(run.stdout) || run.error || 'no output';
    const how = run.code === null ? 'could not run' : `exited with code ${run.code}`;
    return { bin, found: true, path, problem: `\`${bin} --version\` ${how}: ${said}` };
  }
  return { bin, found: true, path, version };
}

/**
 * Probes the CLI of every agent that names a runtime: its `bin`, else the runtime's default, on the PATH of `env`
 * with the agent's own `env` over it (as the daemon runs it). A problem comes with the hint to install or set `bin`.
 */
export async function checkRuntimeAgents(
  agents: readonly Agent[],
  options: Omit<ProbeOptions, 'bin'>,
): Promise<RuntimeCheck[]> {
  const runtimeAgents = agents.filter((agent) => agent.runtime && agent.runtime in RUNTIMES_BY_NAME);
  return Promise.all(
    runtimeAgents.map(async (agent) => {
      const runtime = agent.runtime as RuntimeName;
      const bin = agent.bin ?? RUNTIMES_BY_NAME[runtime].defaultBin;
      const probe = await probeRuntime({ ...options, bin, env: { ...options.env, ...agent.env } });
      if (!probe.problem) return { agent: agent.id, runtime, ...probe };
      const hint = probe.found
        ? `Run \`${probe.path} --version\` to see what it says; reinstall it with ` +
          `\`npm install -g ${RUNTIME_PACKAGES[runtime]}\`, or set agent ${agent.id}'s \`bin\` to another executable.`
        : toInstallHint(runtime, agent.id);
      return { agent: agent.id, runtime, ...probe, hint };
    }),
  );
}

/** How to install a runtime's CLI, or point the agent at it. */
export function toInstallHint(runtime: RuntimeName, agent: string): string {
  return (
    `Install it with \`npm install -g ${RUNTIME_PACKAGES[runtime]}\`, or set agent ${agent}'s \`bin\` ` +
    'to the path of the executable (svc agent add --bin, or org/org-chart.yaml).'
  );
}

// --- internal ---

interface VersionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  error?: string;
}

function findExecutable({ bin, env, cwd }: ProbeOptions): string | null {
  if (bin.includes('/')) {
    const path = isAbsolute(bin) ? bin : resolve(cwd, bin);
    return isExecutable(path) ? path : null;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const path = join(isAbsolute(dir) ? dir : resolve(cwd, dir), bin);
    if (isExecutable(path)) return path;
  }
  return null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Runs `<path> --version` in its own process group, killed whole at the timeout (a CLI may start children). */
function runVersion(path: string, options: { env: Record<string, string | undefined>; timeoutMs: number }) {
  return new Promise<VersionRun>((done) => {
    const out = { stdout: '', stderr: '' };
    const child = spawn(path, ['--version'], { env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout.on('data', (chunk: Buffer) => (out.stdout = (out.stdout + chunk.toString()).slice(0, 4096)));
    child.stderr.on('data', (chunk: Buffer) => (out.stderr = (out.stderr + chunk.toString()).slice(0, 4096)));
    const timer = setTimeout(() => {
      killGroup(child.pid);
      done({ code: null, ...out, timedOut: true });
    }, options.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      done({ code: null, ...out, timedOut: false, error: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, ...out, timedOut: false });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean) ?? ''
  );
}
