// A root whose agents are the real agent CLIs (installed once, test/helpers/agent-clis.ts), pointed at the file's one
// scripted model server, with a daemon of its own: what the runtime end-to-end tests share.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeName } from '../../lib/org/runtimes.js';
import { createStore } from '../../lib/store/commit/store.js';
import { readEvents } from '../../lib/store/events/log.js';
import { ensureAgentCli } from '../helpers/agent-clis.js';
import { writeOrg } from '../helpers/agents.js';
import { baseUrlFor, type CliModelServer } from '../helpers/cli-model/server.js';
import { call, healthy, startChild, type ChildDaemon } from '../helpers/daemon.js';
import { tempRoot, within } from '../helpers/root.js';

/** The model every runtime agent of the tests names, and its price in the org chart. */
export const MODEL = 'scripted-model';
export const PRICING = { [MODEL]: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 } };
export const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 1000, retryBackoffMs: [0] };

const DIALECT: Record<RuntimeName, 'anthropic' | 'responses' | 'gemini'> = {
  'claude-code': 'anthropic',
  codex: 'responses',
  gemini: 'gemini',
};

/** The variables each CLI needs beside its base URL: an API key (any: the scripted server takes every key). */
const KEYS: Record<RuntimeName, Record<string, string>> = {
  'claude-code': { ANTHROPIC_API_KEY: 'scripted-key' },
  codex: { OPENAI_API_KEY: 'scripted-key' },
  gemini: { GEMINI_API_KEY: 'scripted-key' },
};

/** One runtime agent of a test's org chart. */
export interface RuntimeAgent {
  id: string;
  runtime: RuntimeName;
  [key: string]: unknown;
}

/** A root with runtime agents and its daemon. */
export interface RuntimeRig {
  root: string;
  home: string;
  daemon: ChildDaemon;
}

/** The org chart entry of a runtime agent, on the scripted server. */
export async function runtimeAgent(server: CliModelServer, agent: RuntimeAgent): Promise<Record<string, unknown>> {
  const cli = await ensureAgentCli(agent.runtime);
  const { id, runtime, env, ...rest } = agent;
  return {
    id,
    name: id,
    runtime,
    bin: cli.bin,
    model: MODEL,
    baseUrl: baseUrlFor(server, DIALECT[runtime]),
    env: { ...KEYS[runtime], ...(env as Record<string, string> | undefined) },
    ...rest,
  };
}

/** Writes the org chart (agents, plus `extra` at the top level) and starts the root's daemon with its own HOME. */
export async function startRuntimeRig(
  server: CliModelServer,
  setup: { agents: RuntimeAgent[]; extra?: Record<string, unknown>; daemon?: Record<string, unknown>; root?: string },
): Promise<RuntimeRig> {
  const root = setup.root ?? tempRoot('svc-rt-');
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  const agents = await Promise.all(setup.agents.map((agent) => runtimeAgent(server, agent)));
  const extra = setup.extra ?? {};
  const aof = (extra.aof ?? {}) as Record<string, unknown>;
  writeOrg(root, {
    ...extra,
    agents,
    aof: { ...aof, pricing: PRICING, daemon: { ...FAST, ...setup.daemon } },
  });
  const daemon = startChild(root, ['daemon', 'run'], { HOME: home });
  await healthy(root);
  return { root, home, daemon };
}

/** Dispatches a task through the daemon; returns its id. */
export async function dispatchTask(root: string, params: Record<string, unknown>): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params });
  if (status !== 200) throw new Error(`svc_dispatch: ${status} ${JSON.stringify(body)}`);
  return (body as { result: { taskId: string } }).result.taskId;
}

/** Waits until the task is in `status` (default 60 s); returns it. */
export async function untilStatus(root: string, id: string, status: string, ms = 60_000) {
  const store = createStore({ root });
  return within(
    ms,
    async () => {
      const task = await store.get(id).catch(() => null);
      return task?.status === status ? task : null;
    },
    `${id} to be ${status}`,
  );
}

/** The events of a type for a task. */
export async function eventsOf(root: string, id: string, type: string) {
  return readEvents(root, { taskId: id, type });
}

/** Every run log of a task, concatenated. */
export function runLogs(root: string, id: string): string {
  const dir = join(root, 'data', 'logs', 'runs', id);
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.log'))
      .sort()
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .join('\n');
  } catch {
    return '';
  }
}
