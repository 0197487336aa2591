// A real OpenClaw gateway (installed once into a cache folder), a scripted model on 127.0.0.1 and a
// real svc daemon: the task flows of docs/openclaw.md in standalone mode (the daemon spawns
// through the gateway's /tools/invoke).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { call, healthy } from '../helpers/daemon.js';
import { freePort } from '../helpers/openclaw.js';
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
  readConfig,
  statusOf,
  TOKEN,
  workspace,
} from './openclaw-setup.js';

const e2e = openclawSuite('e2e.openclaw-standalone');

e2e(
  'standalone: after `svc init --yes --standalone` the daemon spawns through the gateway /tools/invoke sessions_spawn with the bearer token, and the agent completes over MCP',
  async () => {
    const port = await freePort();
    const { root, home, configPath, config, logFile } = workspace(port, { bootWindowMs: 500, pollIntervalMs: 1000 });
    writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
    await init(root, home, configPath, '--standalone');
    const wired = readConfig(configPath);
    assert.equal(wired.gateway.tools.allow, ['sessions_spawn']);
    assert.is(wired.mcp.servers.svc.env.SVC_HOME, root);
    assert.match(
      readFileSync(join(root, 'data', 'daemon.env'), 'utf8'),
      new RegExp(`^SVC_GATEWAY_TOKEN=${TOKEN}$`, 'm'),
    );
    const gateway = await gatewayUp({ install, configPath, home, port, token: TOKEN, logFile });
    const agents = await gateway.invoke('agents_list');
    assert.match(JSON.stringify(agents.body), /"id":"dev"/);

    daemonChild(root);
    await healthy(root);
    await within(
      10_000,
      async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'standalone',
      'standalone mode',
    );
    const id = await dispatch(root, 'Standalone through a real gateway');
    await within(
      120_000,
      async () => (await statusOf(root, id)) === 'done',
      `${id} done (daemon log: ${daemonLog(root)})`,
    );
    const dispatched = await readEvents(root, { taskId: id, type: 'task.dispatched' });
    assert.equal(
      dispatched.map((e) => e.payload.adapter),
      ['standalone'],
      daemonLog(root),
    );
    assert.ok(
      model.turns.some((turn) => /svc_task_complete/.test(turn.reply)),
      'the model called svc_task_complete',
    );
  },
);

e2e(
  "standalone: an operator's cancel of a task a gateway run holds cancels that run through the gateway's subagents tool",
  async () => {
    const port = await freePort();
    const { root, home, configPath, config, logFile } = workspace(port, { bootWindowMs: 500, pollIntervalMs: 1000 });
    writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
    await init(root, home, configPath, '--standalone');
    await gatewayUp({ install, configPath, home, port, token: TOKEN, logFile });
    daemonChild(root);
    await healthy(root);
    await within(
      10_000,
      async () => ((await call(root, 'GET', '/status')).body as { mode: string }).mode === 'standalone',
      'standalone mode',
    );
    const held = model.held.open;
    const { body } = await call(root, 'POST', '/v1/tool/invoke', {
      tool: 'svc_dispatch',
      params: { title: 'Never finish', brief: 'Never finish this.', agent: 'dev' },
    });
    const id = (body as { result: { taskId: string } }).result.taskId;
    await within(60_000, () => model.held.open > held, `the run waiting on the model (daemon log: ${daemonLog(root)})`);
    await cancelHeldRun(root, id, 'the gateway run aborted');
    const logged = /cancelled its standalone gateway runs since it was cancelled: gateway task \S+ cancelled/;
    await within(
      30_000,
      () => logged.test(readFileSync(join(root, 'data', 'logs', 'daemon.log'), 'utf8')),
      `the log line (daemon log: ${daemonLog(root)})`,
    );
  },
);

e2e.run();
