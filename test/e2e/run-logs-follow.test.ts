import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/commit/store.js';
import { SVC_BIN, writeOrg } from '../helpers/agents.js';
import { closeDaemons, healthy, runSvc, startChild } from '../helpers/daemon.js';
import { startFakeGateway } from '../helpers/fake-gateway.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { agent, FAST, start } from './run-logs-setup.js';

// svc task logs --follow of a run (docs/approvals-and-logs.md): a local agent's lines as it writes them,
// a gateway agent's session, and a task no daemon runs.
const logs = suite('e2e.run logs --follow');
logs.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

logs("--follow shows a running agent's lines as it writes them and ends when the run ends", async () => {
  const { root, env, id } = await start(
    `console.log('tick one'); waitFor('go-1'); console.log('tick two'); waitFor('go-2'); complete();`,
  );
  const backlog = await runSvc(env, 'task', 'logs', id, '--follow');
  assert.is(
    backlog.stdout,
    `(${id} has no run logs, and no run is under way)\n`,
    'a backlog task has no run to wait for',
  );
  assert.is((await runSvc(env, 'task', 'promote', id)).code, 0); // ready: the follow waits for its first run
  const follower = spawn(process.execPath, [SVC_BIN, 'task', 'logs', id, '--follow'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  follower.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  follower.stderr.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  const exited = new Promise<{ code: number | null }>((resolve) => follower.on('close', (code) => resolve({ code })));
  try {
    await within(20_000, () => out.includes('tick one\n'), 'the first line while the agent runs');
    assert.not.ok(out.includes('tick two'));
    writeFileSync(`${root}/go-1`, '');
    await within(15_000, () => out.includes('tick two\n'), 'the second line while the agent runs');
    assert.not.match(out, /svc run ended/);
    writeFileSync(`${root}/go-2`, '');
    const { code } = await within(20_000, () => exited, 'the follow to end').catch((err: Error) =>
      Promise.reject(new Error(`${err.message}; it printed:\n${out}`)),
    );
    assert.is(code, 0, out);
    assert.match(out, /=== svc run ended: exit code 0 at \S+ ===\n$/);
  } finally {
    follower.kill('SIGKILL');
  }
});

logs(
  "a gateway agent's run names its session in svc task logs, and --follow says its output is in the gateway and ends",
  async () => {
    const gateway = await startFakeGateway();
    const root = tempRoot();
    writeOrg(root, {
      agents: [{ id: 'gw', name: 'Gateway agent' }],
      aof: { daemon: { ...FAST, gatewayUrl: gateway.url } },
    });
    const env = { SVC_HOME: root, HOME: root };
    try {
      startChild(root);
      await healthy(root);
      const created = await runSvc(env, 'task', 'create', 'Gateway work', '--agent', 'gw', '--json');
      const id = (JSON.parse(created.stdout) as { id: string }).id;
      assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
      await within(
        15_000,
        async () => (await createStore({ root }).get(id)).status === 'in-progress',
        `${id} in progress`,
      );
      const session = (await createStore({ root }).get(id)).task.lease!.sessionId;
      const followed = await within(15_000, () => runSvc(env, 'task', 'logs', id, '--follow'), 'the follow to end');
      assert.is(followed.code, 0, followed.stderr);
      assert.match(
        followed.stdout,
        new RegExp(
          `agent gw through the gateway \\(standalone adapter\\), session ${session}, .*not in a run log here`,
        ),
      );
      const listed = await runSvc(env, 'task', 'logs', id);
      assert.match(
        listed.stdout,
        new RegExp(
          `^=== svc run: task ${id}, agent gw through the gateway \\(standalone adapter\\), session ${session}, started `,
        ),
      );
      const json = JSON.parse((await runSvc(env, 'task', 'logs', id, '--json')).stdout) as Array<{
        kind: string;
        session: string;
        path: null;
      }>;
      assert.equal(
        json.map((run) => [run.kind, run.session, run.path]),
        [['standalone', session, null]],
      );
    } finally {
      await gateway.close();
    }
  },
);

logs(
  '--follow of a ready task with no daemon running says no daemon dispatches it and ends; of a claimed task, that it was claimed',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: agent('complete();') }] });
    const env = { SVC_HOME: root, HOME: root };
    const created = await runSvc(env, 'task', 'create', 'Waits for a daemon', '--agent', 'dev', '--json');
    const id = (JSON.parse(created.stdout) as { id: string }).id;
    assert.is((await runSvc(env, 'task', 'promote', id)).code, 0);
    const followed = await within(15_000, () => runSvc(env, 'task', 'logs', id, '--follow'), 'the follow to end');
    assert.is(followed.code, 0, followed.stderr);
    assert.is(
      followed.stdout,
      `(${id} has no run log, and no daemon runs on ${root} to dispatch it: start one with \`svc daemon start\`, then follow again)\n`,
    );
    const claimed = await runSvc(env, 'task', 'claim', id);
    const session = /\(session (\S+)\)/.exec(claimed.stdout)![1];
    const ofClaim = await within(15_000, () => runSvc(env, 'task', 'logs', id, '--follow'), 'the follow to end');
    assert.is(
      ofClaim.stdout,
      `(${id} is claimed by operator (session ${session}), not dispatched: no run writes a log for it)\n`,
    );
  },
);

logs.run();
