import { existsSync, renameSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as z from 'zod';
import * as assert from 'uvu/assert';
import { readEvents as readEventLog } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import type { ToolDef } from '../../lib/tools/registry.js';
import { startWebBoard } from '../../lib/web/server.js';
import { closeDaemons, runSvc, startTestDaemon, writeTaskFiles } from '../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';
import { authed, readEvents, startWebDaemon, webRequest } from '../helpers/web.js';

// The web board's actions, its stream, and svc web with its port.
const web = suite('web.startWebBoard');
web.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

const ID = 'TASK-2026-01-01-001';

web('an action runs as the --as name through the operator tool, and its errors come back', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const { web: address } = await startWebDaemon(root);
  const headers = {
    ...authed(address.token, address.port, true),
    cookie: `svc_web_${address.port}=${address.token}; svc_web_as_${address.port}=alice`,
  };
  const ok = await webRequest(address.port, 'POST', '/api/action/promote', headers, JSON.stringify({ taskId: ID }));
  assert.is(ok.status, 200, ok.text);
  assert.ok(existsSync(toPaths(root).taskFile('ready', ID)));
  const events = await readEventLog(root, { taskId: ID });
  assert.ok(
    events.some((event) => event.actor === 'alice'),
    JSON.stringify(events),
  );
  const again = await webRequest(
    address.port,
    'POST',
    '/api/action/resurrect',
    headers,
    JSON.stringify({ taskId: ID }),
  );
  assert.is(again.status, 409, again.text);
  assert.match(JSON.parse(again.text).error.code, /invalid_transition/);
  const meta = JSON.parse((await webRequest(address.port, 'GET', '/api/meta', headers)).text);
  assert.equal(meta.actions.includes('approve'), false, 'no approval tools in this daemon: no approve button');
});

web(
  'approve and reject are offered when the daemon has the approval tools, and reach them with the gate shown, the note and the actor',
  async () => {
    const root = tempRoot();
    await writeTaskFiles(root, 1);
    const calls: unknown[] = [];
    const approval = (name: string) => ({
      name,
      description: name,
      params: z.strictObject({
        taskId: z.string(),
        gate: z.string().optional(),
        note: z.string().optional(),
        actor: z.string(),
      }),
      handler: async (p: unknown) => {
        calls.push([name, p]);
        return { ok: true };
      },
    });
    const { web: address } = await startWebDaemon(root, {
      tools: [...TOOLS, ...OPERATOR_TOOLS, approval('svc_task_approve'), approval('svc_task_reject')] as ToolDef[],
    });
    const headers = authed(address.token, address.port, true);
    const meta = JSON.parse((await webRequest(address.port, 'GET', '/api/meta', headers)).text);
    assert.ok(meta.actions.includes('approve') && meta.actions.includes('reject'), meta.actions.join(','));
    const answer = await webRequest(
      address.port,
      'POST',
      '/api/action/reject',
      headers,
      JSON.stringify({ taskId: ID, gate: 'signoff', note: 'needs tests', reason: 'ignored' }),
    );
    assert.is(answer.status, 200, answer.text);
    assert.equal(calls, [['svc_task_reject', { actor: 'operator', taskId: ID, gate: 'signoff', note: 'needs tests' }]]);
  },
);

web(
  'the stream starts with a snapshot, sends a hand move as a change, and resumes after the last event id',
  async () => {
    const root = tempRoot();
    const [a, b] = await writeTaskFiles(root, 2);
    const { daemon, web: address } = await startWebDaemon(root);
    await daemon.index.watching;
    const headers = authed(address.token, address.port);
    const paths = toPaths(root);
    const moveOnSnapshot = (event: { event: string }) =>
      event.event === 'snapshot' && renameSync(paths.taskFile('backlog', a!), paths.taskFile('ready', a!));
    const events = await readEvents(
      address.port,
      '/api/board/stream',
      headers,
      (list) =>
        list.some((e) => e.event === 'change' && e.data.upserts.some((c: any) => c.id === a && c.status === 'ready')),
      moveOnSnapshot,
    );
    assert.is(events[0]!.event, 'snapshot');
    assert.equal(events[0]!.data.cards.map((c: any) => c.id).sort(), [a, b]);
    const change = events.find((e) => e.event === 'change')!;
    assert.match(change.id, new RegExp(`^${events[0]!.data.epoch}\\.\\d+$`));
    renameSync(paths.taskFile('backlog', b!), paths.taskFile('ready', b!));
    const resumed = await readEvents(
      address.port,
      '/api/board/stream',
      { ...headers, 'last-event-id': change.id },
      (list) => list.some((e) => e.event === 'change' && e.data.upserts.some((c: any) => c.id === b)),
    );
    assert.is(resumed[0]!.event, 'change', 'a resume replays the changes after its id, no snapshot');
    assert.ok(resumed.every((e) => e.data.seq > change.data.seq));
    const stale = await readEvents(
      address.port,
      '/api/board/stream',
      { ...headers, 'last-event-id': 'abcdef.3' },
      (list) => list.length > 0,
    );
    assert.is(stale[0]!.event, 'snapshot', 'an id of another daemon start gets a snapshot');
  },
);

web('svc web prints the URL with the token; with no daemon it says how to start one and exits 1', async () => {
  const root = tempRoot();
  const none = await runSvc({ SVC_HOME: root }, 'web');
  assert.is(none.code, 1);
  assert.match(none.stderr, /svc daemon start/);
  await startWebDaemon(root);
  const shown = await runSvc({ SVC_HOME: root }, 'web', '--json', '--as', 'bob');
  assert.is(shown.code, 0, shown.stderr);
  const body = JSON.parse(shown.stdout);
  assert.match(body.url, new RegExp(`^http://127\\.0\\.0\\.1:${body.port}/\\?token=[A-Za-z0-9_-]{32,}&as=bob$`));
  const other = await runSvc({ SVC_HOME: root }, 'web', '--port', String(body.port === 65535 ? 65534 : body.port + 1));
  assert.is(other.code, 1);
  assert.match(other.stderr, new RegExp(`already listens on port ${body.port}`));
  const host = await runSvc({ SVC_HOME: root }, 'web', '--host', '0.0.0.0');
  assert.is(host.code, 1);
  assert.match(host.stderr, /127\.0\.0\.1 only/);
});

web('a port in use is refused with a hint, and the daemon then opens the board on another', async () => {
  const root = tempRoot();
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const port = (busy.address() as AddressInfo).port;
  try {
    await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], web: startWebBoard, schedule: false });
    const refused = await runSvc({ SVC_HOME: root }, 'web', '--port', String(port));
    assert.is(refused.code, 1);
    assert.match(refused.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\)`));
    assert.match(refused.stderr, /--port/);
    const opened = await runSvc({ SVC_HOME: root }, 'web', '--json');
    assert.is(opened.code, 0, opened.stderr);
    assert.is.not(JSON.parse(opened.stdout).port, port);
  } finally {
    busy.close();
  }
});

web.run();
