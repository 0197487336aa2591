import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spoolEventLines } from '../../lib/store/events/spool.js';
import { readEvents } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { TOOLS } from '../../lib/tools/index.js';
import { call, closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// An answer is the truth (docs/reliability.md): once the task file is committed, the call says so.

type Reply = {
  status: number;
  body: { ok: boolean; result?: { taskId: string; status: string }; error?: { code: string; message: string } };
};

const invoke = async (root: string, tool: string, params: unknown): Promise<Reply> =>
  (await call(root, 'POST', '/v1/tool/invoke', { tool, params })) as Reply;

const answers = suite('e2e: an answer is the truth');
answers.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

answers(
  'a change whose event cannot be appended still succeeds; the daemon logs the outage and appends the event once it can',
  async () => {
    const root = tempRoot();
    const daemon = await startTestDaemon(root, { tools: TOOLS, schedule: false });
    const paths = toPaths(root);
    const first = await invoke(root, 'svc_dispatch', { title: 'Before', brief: 'Fine.' });
    assert.is(first.status, 200);
    rmSync(paths.events, { recursive: true, force: true });
    writeFileSync(paths.events, 'not a directory\n'); // every append now fails with ENOTDIR
    const during = await invoke(root, 'svc_dispatch', { title: 'During', brief: 'Applied though unlogged.' });
    assert.is(during.status, 200, JSON.stringify(during.body));
    const id = during.body.result!.taskId;
    const moved = await invoke(root, 'svc_task_update', { taskId: id, status: 'ready' });
    assert.is(moved.status, 200, JSON.stringify(moved.body));
    const hook = await call(root, 'POST', '/v1/event/agent-end', { sessionKey: 'agent:dev:svc-x' });
    assert.is(hook.status, 202, 'a plugin hook that took effect is acknowledged too');
    await within(
      5000,
      () => /error events\.append_failed .*ENOTDIR/.test(readFileSync(paths.daemonLog, 'utf8')),
      'the outage in the daemon log',
    );
    rmSync(paths.events);
    mkdirSync(paths.events, { mode: 0o700 });
    const events = await within(
      10_000,
      async () => {
        const found = await readEvents(root, { taskId: id });
        return found.length === 2 ? found : null;
      },
      'the pending events appended after the repair',
    );
    assert.equal(
      events.map((e) => [e.type, e.payload.title ?? e.payload.to]),
      [
        ['task.created', 'During'],
        ['task.transitioned', 'ready'],
      ],
    );
    assert.is((await readEvents(root, { type: 'plugin.agent-end' })).length, 1);
    await within(
      5000,
      () => /info events\.recovered/.test(readFileSync(paths.daemonLog, 'utf8')),
      'the recovery in the daemon log',
    );
    await daemon.close();
    assert.is((await readEvents(root, { taskId: id })).length, 2, 'written once, not again at the stop');
  },
);

answers('a daemon starts while its event log cannot be appended; daemon.started is written once it can', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  mkdirSync(paths.data, { recursive: true, mode: 0o700 });
  writeFileSync(paths.events, 'not a directory\n');
  const daemon = await startTestDaemon(root, { tools: TOOLS, schedule: false });
  const health = await call(root, 'GET', '/healthz');
  assert.is(health.status, 200, 'the daemon serves though its event log is broken');
  await within(
    5000,
    () => /error events\.append_failed .*ENOTDIR/.test(readFileSync(paths.daemonLog, 'utf8')),
    'the outage in the daemon log',
  );
  rmSync(paths.events);
  mkdirSync(paths.events, { mode: 0o700 });
  await within(
    10_000,
    async () => (await readEvents(root, { type: 'daemon.started' })).length === 1,
    'daemon.started appended after the repair',
  );
  await daemon.close();
  assert.equal(
    (await readEvents(root)).map((e) => e.type),
    ['daemon.started', 'daemon.stopped'],
  );
});

answers(
  'events still pending at a stop are spooled, and the next daemon appends them once; a spool file is appended within a tick',
  async () => {
    const root = tempRoot();
    const paths = toPaths(root);
    let daemon = await startTestDaemon(root, { tools: TOOLS, schedule: false });
    await within(5000, async () => (await readEvents(root, { type: 'daemon.started' })).length === 1, 'daemon.started');
    renameSync(paths.events, `${paths.events}.aside`);
    writeFileSync(paths.events, 'not a directory\n');
    const created = await invoke(root, 'svc_dispatch', { title: 'Pending at the stop', brief: 'Spooled.' });
    assert.is(created.status, 200, JSON.stringify(created.body));
    const id = created.body.result!.taskId;
    await daemon.close();
    assert.match(
      readFileSync(paths.daemonLog, 'utf8'),
      /warn events\.spooled .*"pending":2/,
      'task.created and daemon.stopped spooled',
    );
    assert.is(readdirSync(paths.eventsSpool).length, 1);
    rmSync(paths.events);
    renameSync(`${paths.events}.aside`, paths.events);
    daemon = await startTestDaemon(root, { tools: TOOLS, schedule: false });
    await within(10_000, () => readdirSync(paths.eventsSpool).length === 0, 'the spool merged by the next daemon');
    assert.equal(
      (await readEvents(root, { taskId: id })).map((e) => e.type),
      ['task.created'],
    );
    const lifecycle = (await readEvents(root)).filter((e) => e.type.startsWith('daemon.')).map((e) => e.type);
    assert.equal(
      lifecycle,
      ['daemon.started', 'daemon.started', 'daemon.stopped'],
      'each once: the second start, then the spooled stop',
    );
    await spoolEventLines(
      root,
      `${JSON.stringify({ timestamp: new Date().toISOString(), type: 'test.late', actor: 't', payload: {} })}\n`,
    );
    await within(
      10_000,
      async () => (await readEvents(root, { type: 'test.late' })).length === 1,
      'a spool file written later appended by the running daemon',
    );
    await daemon.close();
    assert.is((await readEvents(root, { type: 'test.late' })).length, 1, 'appended once');
  },
);

answers.run();
