// A real OpenClaw gateway (installed once into a cache folder), a scripted model on 127.0.0.1 and a
// real svc daemon: the task flows of docs/openclaw.md, in plugin and standalone mode.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { writeOrg } from '../helpers/agents.js';
import { call, healthy, runSvc, startChild, type ChildDaemon } from '../helpers/daemon.js';
import { baseGatewayConfig, ensureOpenClaw, freePort, startGateway, validateGatewayConfig, type Gateway, type OpenClawInstall } from '../helpers/openclaw.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.js';

const TOKEN = 'svc-e2e-token';
const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const e2e = suite('e2e.openclaw');
const open: { close(): Promise<void> }[] = [];
let install: OpenClawInstall;
let model: ScriptedModel;

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

/** A svc root with one gateway agent, a gateway home, and the gateway config path. */
function workspace(port: number, daemon: Record<string, unknown>) {
  const root = tempRoot('svc-oc-');
  const home = join(root, 'home');
  mkdirSync(join(home, '.openclaw'), { recursive: true });
  writeOrg(root, { agents: [{ id: 'dev', name: 'Developer', active: true }], aof: { daemon } });
  const configPath = join(home, '.openclaw', 'openclaw.json');
  const config = baseGatewayConfig({ port, token: TOKEN, modelUrl: model.url, workspace: join(home, 'workspace'), logFile: join(home, 'gateway.log'), agents: ['main', 'dev'] });
  return { root, home, configPath, config, logFile: join(home, 'gateway.log') };
}

function daemonChild(root: string, env: Record<string, string> = {}): ChildDaemon {
  const child = startChild(root, ['daemon', 'run'], env);
  open.push({ close: () => child.kill() });
  return child;
}

async function gatewayUp(options: Parameters<typeof startGateway>[0]): Promise<Gateway> {
  const gateway = await startGateway(options);
  open.push(gateway);
  return gateway;
}

/** Runs `svc init --yes` on the gateway config, as a user would before starting the gateway. */
async function init(root: string, home: string, configPath: string, ...flags: string[]): Promise<void> {
  const env = { SVC_HOME: root, HOME: home, OPENCLAW_STATE_DIR: join(home, 'state'), PATH: process.env.PATH ?? '' };
  const { code, stdout, stderr } = await runSvc(env, 'init', '--yes', '--config', configPath, ...flags);
  assert.is(code, 0, stdout + stderr);
}

/** The gateway config as JSON (svc init keeps a plain-JSON config plain). */
function readConfig(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

async function dispatch(root: string, title: string): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title, brief: 'Say that it is done.', agent: 'dev' } });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

/** The tail of the daemon's log, for failure messages. */
function daemonLog(root: string): string {
  const path = join(root, 'data', 'logs', 'daemon.log');
  return existsSync(path) ? readFileSync(path, 'utf8').slice(-4000) : '(no daemon log)';
}

async function statusOf(root: string, id: string): Promise<string> {
  return (await createStore({ root }).get(id)).status;
}

e2e('standalone: after `svc init --yes --standalone` the daemon spawns through the gateway /tools/invoke sessions_spawn with the bearer token, and the agent completes over MCP', async () => {
  const port = await freePort();
  const { root, home, configPath, config, logFile } = workspace(port, { bootWindowMs: 500, pollIntervalMs: 1000 });
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  await init(root, home, configPath, '--standalone');
  const wired = readConfig(configPath);
  assert.equal(wired.gateway.tools.allow, ['sessions_spawn']);
  assert.is(wired.mcp.servers.svc.env.SVC_HOME, root);
  assert.match(readFileSync(join(root, 'data', 'daemon.env'), 'utf8'), new RegExp(`^SVC_GATEWAY_TOKEN=${TOKEN}$`, 'm'));
  const gateway = await gatewayUp({ install, configPath, home, port, token: TOKEN, logFile });
  const agents = await gateway.invoke('agents_list');
  assert.match(JSON.stringify(agents.body), /"id":"dev"/);

  daemonChild(root);
  await healthy(root);
  await within(10_000, async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'standalone', 'standalone mode');
  const id = await dispatch(root, 'Standalone through a real gateway');
  await within(120_000, async () => (await statusOf(root, id)) === 'done', `${id} done (daemon log: ${daemonLog(root)})`);
  const dispatched = await readEvents(root, { taskId: id, type: 'task.dispatched' });
  assert.equal(dispatched.map((e) => e.payload.adapter), ['standalone'], daemonLog(root));
  assert.ok(model.turns.some((turn) => /svc_task_complete/.test(turn.reply)), 'the model called svc_task_complete');
});

e2e('plugin: after `svc init --yes` the gateway loads svc as a plugin, lists its tools, runs a dispatched task in a gateway session to done, and its hooks reach the daemon', async () => {
  const port = await freePort();
  const { root, home, configPath, config, logFile } = workspace(port, { bootWindowMs: 60_000, pollIntervalMs: 1000 });
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  await init(root, home, configPath);
  const entry = readConfig(configPath).plugins.entries.svc;
  assert.equal(entry.config, { dryRun: false, dataDir: root });
  assert.ok(existsSync(join(home, 'state', 'skills', 'svc', 'SKILL.md')), 'the companion skill is installed');
  const gateway = await gatewayUp({ install, configPath, home, port, token: TOKEN, logFile });
  daemonChild(root);
  await healthy(root);
  await within(60_000, async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'plugin', `plugin mode (gateway output: ${gateway.output().slice(-3000)})`);
  const status = await runSvc({ SVC_HOME: root }, 'daemon', 'status');
  assert.match(status.stdout, /^Plugin: svc/m);

  const listed = await gateway.invoke('svc_status', { compact: true });
  assert.is(listed.status, 200, JSON.stringify(listed.body));
  assert.match(JSON.stringify(listed.body), /byStatus/);

  const id = await dispatch(root, 'Through the plugin');
  await within(120_000, async () => (await statusOf(root, id)) === 'done', `${id} done (daemon log: ${daemonLog(root)}\ngateway: ${gateway.output().slice(-3000)})`);
  const dispatched = await readEvents(root, { taskId: id, type: 'task.dispatched' });
  assert.equal(dispatched.map((e) => e.payload.adapter), ['plugin'], daemonLog(root));
  // The event follows the file's move: wait for it, then check there is exactly one.
  await within(10_000, async () => (await readEvents(root, { taskId: id, type: 'task.completed' })).length > 0, 'task.completed');
  const completed = await readEvents(root, { taskId: id, type: 'task.completed' });
  assert.is(completed.length, 1);
  assert.is(completed[0]!.actor, 'dev');
  const hooks = await within(30_000, async () => {
    const types = (await readEvents(root, {})).filter((e) => e.type.startsWith('plugin.')).map((e) => e.type);
    return types.includes('plugin.agent-end') && types;
  }, 'the agent_end hook in the event log');
  process.stdout.write(`  (hook events: ${[...new Set(hooks)].join(', ')})\n`);
});

/** Cancels `id` as the operator (no lease named) and waits until the model's held request for it is dropped by the gateway. */
async function cancelHeldRun(root: string, id: string, what: string): Promise<void> {
  const closed = model.held.closedByClient;
  const cancel = await runSvc({ SVC_HOME: root, HOME: root }, 'task', 'cancel', id, '--reason', 'runaway');
  assert.is(cancel.code, 0, cancel.stderr);
  await within(60_000, () => model.held.closedByClient > closed, `${what} (daemon log: ${daemonLog(root)})`);
}

e2e('standalone: an operator\'s cancel of a task a gateway run holds cancels that run through the gateway\'s subagents tool', async () => {
  const port = await freePort();
  const { root, home, configPath, config, logFile } = workspace(port, { bootWindowMs: 500, pollIntervalMs: 1000 });
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  await init(root, home, configPath, '--standalone');
  await gatewayUp({ install, configPath, home, port, token: TOKEN, logFile });
  daemonChild(root);
  await healthy(root);
  await within(10_000, async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'standalone', 'standalone mode');
  const held = model.held.open;
  const { body } = await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title: 'Never finish', brief: 'Never finish this.', agent: 'dev' } });
  const id = (body as { result: { taskId: string } }).result.taskId;
  await within(60_000, () => model.held.open > held, `the run waiting on the model (daemon log: ${daemonLog(root)})`);
  await cancelHeldRun(root, id, 'the gateway run aborted');
  const logged = /cancelled its standalone gateway runs since it was cancelled: gateway task \S+ cancelled/;
  await within(30_000, () => logged.test(readFileSync(join(root, 'data', 'logs', 'daemon.log'), 'utf8')), `the log line (daemon log: ${daemonLog(root)})`);
});

e2e('plugin: an operator\'s cancel of a task a gateway session runs deletes that session, which aborts the run', async () => {
  const port = await freePort();
  const { root, home, configPath, config, logFile } = workspace(port, { bootWindowMs: 60_000, pollIntervalMs: 1000 });
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  await init(root, home, configPath);
  const gateway = await gatewayUp({ install, configPath, home, port, token: TOKEN, logFile });
  daemonChild(root);
  await healthy(root);
  await within(60_000, async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'plugin', `plugin mode (gateway output: ${gateway.output().slice(-3000)})`);
  const held = model.held.open;
  const { body } = await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title: 'Never finish', brief: 'Never finish this.', agent: 'dev' } });
  const id = (body as { result: { taskId: string } }).result.taskId;
  await within(60_000, () => model.held.open > held, `the run waiting on the model (gateway: ${gateway.output().slice(-3000)})`);
  await cancelHeldRun(root, id, `the gateway run aborted (gateway: ${gateway.output().slice(-3000)})`);
  await within(30_000, () => /spawn\.result.*"reason":"run_stopped"/.test(readFileSync(join(root, 'data', 'logs', 'daemon.log'), 'utf8')), 'the plugin reports the stopped run');
});

e2e('the gateway validates the plugin config of the specification\'s installation example and refuses an unknown key', async () => {
  const port = await freePort();
  const { root, home, configPath, config } = workspace(port, {});
  const example = {
    dryRun: false, dataDir: root, gatewayUrl: `http://127.0.0.1:${port}`, gatewayToken: TOKEN, pollIntervalMs: 30_000, defaultLeaseTtlMs: 1_800_000, heartbeatTtlMs: 300_000,
    maxConcurrentDispatches: 3, modules: { memory: { enabled: false } },
    memory: { embedding: { provider: 'openai', model: 'text-embedding-3-small', apiKey: 'API_KEY' }, search: { hybridEnabled: true, vectorWeight: 0.7, bm25Weight: 0.3, maxResults: 10 } },
  };
  const withPlugin = (pluginConfig: Record<string, unknown>) => `${JSON.stringify({ ...config, plugins: { load: { paths: [PACKAGE_ROOT] }, entries: { svc: { enabled: true, config: pluginConfig } } } }, null, 2)}\n`;
  writeFileSync(configPath, withPlugin(example));
  const good = await validateGatewayConfig(install, configPath, home);
  assert.ok(good.valid, good.output);
  writeFileSync(configPath, withPlugin({ ...example, settings: { dryRun: false } }));
  const bad = await validateGatewayConfig(install, configPath, home);
  assert.not.ok(bad.valid, bad.output);
  assert.match(bad.output, /plugins\.entries\.svc\.config.*must not have additional properties.*settings/is);
});

e2e.run();
