import { existsSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isAlive } from '../../lib/daemon/instance/pid.js';
import { FORCED_EXIT_CODES } from '../../lib/daemon/shutdown.js';
import { createStore } from '../../lib/store/commit/store.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, healthy, startChild } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';

// Real `svc daemon run` processes from the built bin/svc.js (run `npm run build` first).
const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 300 };
const agents: number[] = [];

/**
 * argv of a command agent that holds the daemon's drain: it opens a tool call on the socket whose
 * body never arrives (a request in flight, which a graceful stop waits for), writes its pid to
 * `<SVC_HOME>/agent.pid` and sleeps for a minute.
 */
function holdingAgent(): string[] {
  const script = `
    const net = require('node:net');
    const fs = require('node:fs');
    const socket = net.connect(process.env.SVC_SOCKET, () => {
      socket.write('POST /v1/tool/invoke HTTP/1.1\\r\\nHost: svc\\r\\nContent-Type: application/json\\r\\nContent-Length: 1000\\r\\n\\r\\n{');
      setTimeout(() => fs.writeFileSync(process.env.SVC_HOME + '/agent.pid', String(process.pid)), 500);
    });
    socket.on('error', () => {});
    setTimeout(() => {}, 60000);
  `;
  return [process.execPath, '-e', script];
}

const signals = suite('daemon.trapSignals');
signals.after.each(async () => {
  for (const pid of agents.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await closeDaemons();
  cleanRoots();
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  signals(
    `a second ${signal} during the drain stops the daemon at once (exit ${FORCED_EXIT_CODES[signal]}): socket, pid file and instance lock released, the agent and its lease left`,
    async () => {
      const root = tempRoot();
      const paths = toPaths(root);
      writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: holdingAgent() }], aof: { daemon: FAST } });
      const child = startChild(root);
      await healthy(root);
      const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
        tool: 'svc_dispatch',
        params: { title: 'Long work', brief: 'Take your time.', agent: 'dev' },
      });
      assert.is(status, 200, JSON.stringify(body));
      const id = (body as { result: { taskId: string } }).result.taskId;
      const agent = await within(
        20_000,
        () => existsSync(`${root}/agent.pid`) && Number(readFileSync(`${root}/agent.pid`, 'utf8')),
        'the agent to hold a request',
      );
      agents.push(agent);
      child.child.kill(signal);
      await logShows(paths.daemonLog, /info daemon\.stopping/);
      const forcedAt = Date.now();
      child.child.kill(signal);
      const { code } = await child.exited;
      assert.is(code, FORCED_EXIT_CODES[signal]);
      assert.ok(
        Date.now() - forcedAt < 5000,
        `exited ${Date.now() - forcedAt} ms after the second signal; the drain waits 10 s`,
      );
      assert.ok(isAlive(agent), 'the agent still runs');
      assert.not.ok(existsSync(paths.socket), 'socket removed');
      assert.not.ok(existsSync(paths.pidFile), 'pid file removed');
      assert.not.ok(existsSync(paths.instanceLock), 'instance lock released');
      const log = readFileSync(paths.daemonLog, 'utf8');
      assert.match(log, /info daemon\.stopping .*"inFlight":1/, "the agent's request held the drain");
      assert.match(log, /warn daemon\.forced/);
      assert.not.match(log, /info daemon\.stopped/);
      const task = (await createStore({ root }).get(id)).task;
      assert.is(task.status, 'in-progress', 'its lease is left to expire, as after a crash');
      const next = startChild(root);
      assert.is(await healthy(root), next.child.pid, 'a new daemon starts at once');
    },
  );
}

signals.run();
