// An OpenClaw gateway process for the end-to-end tests, and the gateway's check of a config file.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { within } from './root.js';
import type { OpenClawInstall } from './openclaw.js';

const run = promisify(execFile);
// The gateway's own line when startup has ended: `[gateway] ready` on its console, `"gateway ready"` in its log file.
const READY = /\[gateway\] ready$|"gateway ready"/m;
const ANSI = /\u001b\[[0-9;]*m/g;

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
    url,
    token,
    child,
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
    await within(
      Number(process.env.SVC_TEST_GATEWAY_MS ?? 300_000),
      async () => {
        if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}`);
        // /tools/invoke answers before startup ends; sessions_spawn is refused until the gateway says it is ready.
        return READY.test(gateway.output().replace(ANSI, '')) && (await gateway.invoke('agents_list')).status === 200;
      },
      'the gateway to be ready',
    );
  } catch (err) {
    const seen = gateway.output().replace(ANSI, '').slice(-3000);
    await gateway.close();
    throw new Error(`${(err as Error).message}\ngateway output:\n${seen}`, { cause: err });
  }
  return gateway;
}

/** Runs `openclaw config validate` on a config file; resolves to whether it is valid and what the gateway said. */
export async function validateGatewayConfig(
  install: OpenClawInstall,
  configPath: string,
  home: string,
): Promise<{ valid: boolean; output: string }> {
  const env = {
    ...withoutForcedColour(process.env),
    HOME: home,
    OPENCLAW_CONFIG_PATH: configPath,
    OPENCLAW_STATE_DIR: join(home, 'state'),
    NO_COLOR: '1',
    PATH: `${join(install.node, '..')}:${process.env.PATH ?? ''}`,
  };
  try {
    const { stdout, stderr } = await run(install.node, [install.entry, 'config', 'validate'], {
      env,
      timeout: 120_000,
    });
    return { valid: true, output: stdout + stderr };
  } catch (err) {
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    return { valid: false, output: stdout + stderr };
  }
}

// --- internal ---

async function invokeTool(
  url: string,
  token: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> }> {
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
