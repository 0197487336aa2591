// A real OpenClaw gateway (installed once into a cache folder), a scripted model on 127.0.0.1 and a
// real svc daemon: the task flows of docs/openclaw.md in plugin mode, and the plugin's config
// checked by the gateway. Standalone mode: openclaw-standalone.test.ts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { call, healthy, runSvc } from '../helpers/daemon.js';
import { freePort } from '../helpers/openclaw.js';
import { validateGatewayConfig } from '../helpers/openclaw-gateway.js';
import { within } from '../helpers/root.js';
import {
  cancelHeldRun,
  daemonChild,
  daemonLog,
  dispatch,
  gatewayUp,
  init,
  install,
  model,
  openclawSuite,
  PACKAGE_ROOT,
  readConfig,
  statusOf,
  TOKEN,
  workspace,
} from './openclaw-setup.js';

const e2e = openclawSuite('e2e.openclaw');

e2e(
  'plugin: after `svc init --yes` the gateway loads svc as a plugin, lists its tools, runs a dispatched task in a gateway session to done, and its hooks reach the daemon',
  async () => {
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
    await within(
      60_000,
      async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'plugin',
      `plugin mode (gateway output: ${gateway.output().slice(-3000)})`,
    );
    const status = await runSvc({ SVC_HOME: root }, 'daemon', 'status');
    assert.match(status.stdout, /^Plugin: svc/m);

    const listed = await gateway.invoke('svc_status', { compact: true });
    assert.is(listed.status, 200, JSON.stringify(listed.body));
    assert.match(JSON.stringify(listed.body), /byStatus/);

    const id = await dispatch(root, 'Through the plugin');
    await within(
      120_000,
      async () => (await statusOf(root, id)) === 'done',
      `${id} done (daemon log: ${daemonLog(root)}\ngateway: ${gateway.output().slice(-3000)})`,
    );
    const dispatched = await readEvents(root, { taskId: id, type: 'task.dispatched' });
    assert.equal(
      dispatched.map((e) => e.payload.adapter),
      ['plugin'],
      daemonLog(root),
    );
    // The event follows the file's move: wait for it, then check there is exactly one.
    await within(
      10_000,
      async () => (await readEvents(root, { taskId: id, type: 'task.completed' })).length > 0,
      'task.completed',
    );
    const completed = await readEvents(root, { taskId: id, type: 'task.completed' });
    assert.is(completed.length, 1);
    assert.is(completed[0]!.actor, 'dev');
    const hooks = await within(
      30_000,
      async () => {
        const types = (await readEvents(root, {})).filter((e) => e.type.startsWith('plugin.')).map((e) => e.type);
        return types.includes('plugin.agent-end') && types;
      },
      'the agent_end hook in the event log',
    );
    process.stdout.write(`  (hook events: ${[...new Set(hooks)].join(', ')})\n`);
  },
);

e2e(
  "plugin: an operator's cancel of a task a gateway session runs deletes that session, which aborts the run",
  async () => {
    const port = await freePort();
    const { root, home, configPath, config, logFile } = workspace(port, { bootWindowMs: 60_000, pollIntervalMs: 1000 });
    writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
    await init(root, home, configPath);
    const gateway = await gatewayUp({ install, configPath, home, port, token: TOKEN, logFile });
    daemonChild(root);
    await healthy(root);
    await within(
      60_000,
      async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'plugin',
      `plugin mode (gateway output: ${gateway.output().slice(-3000)})`,
    );
    const held = model.held.open;
    const { body } = await call(root, 'POST', '/v1/tool/invoke', {
      tool: 'svc_dispatch',
      params: { title: 'Never finish', brief: 'Never finish this.', agent: 'dev' },
    });
    const id = (body as { result: { taskId: string } }).result.taskId;
    await within(
      60_000,
      () => model.held.open > held,
      `the run waiting on the model (gateway: ${gateway.output().slice(-3000)})`,
    );
    await cancelHeldRun(root, id, `the gateway run aborted (gateway: ${gateway.output().slice(-3000)})`);
    await within(
      30_000,
      () =>
        /spawn\.result.*"reason":"run_stopped"/.test(readFileSync(join(root, 'data', 'logs', 'daemon.log'), 'utf8')),
      'the plugin reports the stopped run',
    );
  },
);

e2e(
  "the gateway validates the plugin config of the specification's installation example and refuses an unknown key",
  async () => {
    const port = await freePort();
    const { root, home, configPath, config } = workspace(port, {});
    const example = {
      dryRun: false,
      dataDir: root,
      gatewayUrl: `http://127.0.0.1:${port}`,
      gatewayToken: TOKEN,
      pollIntervalMs: 30_000,
      defaultLeaseTtlMs: 1_800_000,
      heartbeatTtlMs: 300_000,
      maxConcurrentDispatches: 3,
      modules: { memory: { enabled: false } },
      memory: {
        embedding: { provider: 'openai', model: 'text-embedding-3-small', apiKey: 'API_KEY' },
        search: { hybridEnabled: true, vectorWeight: 0.7, bm25Weight: 0.3, maxResults: 10 },
      },
    };
    const withPlugin = (pluginConfig: Record<string, unknown>) =>
      `${JSON.stringify({ ...config, plugins: { load: { paths: [PACKAGE_ROOT] }, entries: { svc: { enabled: true, config: pluginConfig } } } }, null, 2)}\n`;
    writeFileSync(configPath, withPlugin(example));
    const good = await validateGatewayConfig(install, configPath, home);
    assert.ok(good.valid, good.output);
    writeFileSync(configPath, withPlugin({ ...example, settings: { dryRun: false } }));
    const bad = await validateGatewayConfig(install, configPath, home);
    assert.not.ok(bad.valid, bad.output);
    assert.match(bad.output, /plugins\.entries\.svc\.config.*must not have additional properties.*settings/is);
  },
);

e2e.run();
