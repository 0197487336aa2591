import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite, type Test } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/commit/store.js';
import { writeOrg } from '../helpers/agents.js';
import { call, runSvc, startChild, type ChildDaemon } from '../helpers/daemon.js';
import { baseGatewayConfig, ensureOpenClaw, type OpenClawInstall } from '../helpers/openclaw.js';
import { startGateway, type Gateway } from '../helpers/openclaw-gateway.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';

// The OpenClaw end-to-end tests' gateway, model, roots and calls (test/e2e/openclaw*.test.ts).
export const TOKEN = 'svc-e2e-token';
export const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What the suite's `before` set up, for the tests to use (ES module bindings, read when the tests run). */
export let install: OpenClawInstall;
export let model: ScriptedModel;
const open: { close(): Promise<void> }[] = [];

/** The suite `name` with its hooks: OpenClaw installed and a scripted model started before, every handle closed after each test. */
export function openclawSuite(name: string): Test {
  const e2e = suite(name);
  e2e.before(async () => {
    const started = Date.now();
    install = await ensureOpenClaw((line) => process.stdout.write(`  (${line})\n`));
    process.stdout.write(`  (openclaw ready in ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    model = await startScriptedModel({ hold: /Never finish/ });
  });
  e2e.after.each(async () => {
    for (const handle of open.splice(0).reverse()) await handle.close();
    cleanRoots();
  });
  e2e.after(async () => model.close());
  return e2e;
}

/** A svc root with one gateway agent, a gateway home, and the gateway config path. */
export function workspace(port: number, daemon: Record<string, unknown>) {
  const root = tempRoot('svc-oc-');
  const home = join(root, 'home');
  mkdirSync(join(home, '.openclaw'), { recursive: true });
  writeOrg(root, { agents: [{ id: 'dev', name: 'Developer', active: true }], aof: { daemon } });
  const configPath = join(home, '.openclaw', 'openclaw.json');
  const config = baseGatewayConfig({
    port,
    token: TOKEN,
    modelUrl: model.url,
    workspace: join(home, 'workspace'),
    logFile: join(home, 'gateway.log'),
    agents: ['main', 'dev'],
  });
  return { root, home, configPath, config, logFile: join(home, 'gateway.log') };
}

export function daemonChild(root: string, env: Record<string, string> = {}): ChildDaemon {
  const child = startChild(root, ['daemon', 'run'], env);
  open.push({ close: () => child.kill() });
  return child;
}

export async function gatewayUp(options: Parameters<typeof startGateway>[0]): Promise<Gateway> {
  const gateway = await startGateway(options);
  open.push(gateway);
  return gateway;
}

/** Runs `svc init --yes` on the gateway config, as a user would before starting the gateway. */
export async function init(root: string, home: string, configPath: string, ...flags: string[]): Promise<void> {
  const env = { SVC_HOME: root, HOME: home, OPENCLAW_STATE_DIR: join(home, 'state'), PATH: process.env.PATH ?? '' };
  const { code, stdout, stderr } = await runSvc(env, 'init', '--yes', '--config', configPath, ...flags);
  assert.is(code, 0, stdout + stderr);
}

/** The gateway config as JSON (svc init keeps a plain-JSON config plain). */
export function readConfig(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

export async function dispatch(root: string, title: string): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { title, brief: 'Say that it is done.', agent: 'dev' },
  });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

/** The tail of the daemon's log, for failure messages. */
export function daemonLog(root: string): string {
  const path = join(root, 'data', 'logs', 'daemon.log');
  return existsSync(path) ? readFileSync(path, 'utf8').slice(-4000) : '(no daemon log)';
}

export async function statusOf(root: string, id: string): Promise<string> {
  return (await createStore({ root }).get(id)).status;
}

/** Cancels `id` as the operator (no lease named) and waits until the model's held request for it is dropped by the gateway. */
export async function cancelHeldRun(root: string, id: string, what: string): Promise<void> {
  const closed = model.held.closedByClient;
  const cancel = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'cancel', id, '--reason', 'runaway');
  assert.is(cancel.code, 0, cancel.stderr);
  await within(60_000, () => model.held.closedByClient > closed, `${what} (daemon log: ${daemonLog(root)})`);
}
