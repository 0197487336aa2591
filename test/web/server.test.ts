import { existsSync, readdirSync, renameSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as z from 'zod';
import * as assert from 'uvu/assert';
import { readEvents as readEventLog } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import type { ToolDef } from '../../lib/tools/registry.js';
import { startWebBoard } from '../../lib/web/server.js';
import { call, closeDaemons, runSvc, startTestDaemon, writeTaskFiles } from '../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';
import { authed, readEvents, startWebDaemon, webRequest } from '../helpers/web.js';

const web = suite('web.startWebBoard');
web.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

const ID = 'TASK-2026-01-01-001';

web('a request without the token gets 401 and changes nothing, on every route', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const { web: address } = await startWebDaemon(root);
  for (const path of ['/', '/agents', `/task/${ID}`, '/api/meta', '/api/board/stream', `/api/task/${ID}`, '/assets/app.js']) {
    const answer = await webRequest(address.port, 'GET', path);
    assert.is(answer.status, 401, path);
    assert.match(answer.text, /svc web/);
  }
  const wrong = await webRequest(address.port, 'GET', '/?token=not-the-token');
  assert.is(wrong.status, 401);
  const post = await webRequest(address.port, 'POST', '/api/action/promote', { 'content-type': 'application/json' }, JSON.stringify({ taskId: ID }));
  assert.is(post.status, 401);
  // The cookie alone does not carry a change: the token header is what the page's own script adds.
  const cookieOnly = await webRequest(address.port, 'POST', '/api/action/promote', { cookie: `svc_web_${address.port}=${address.token}`, 'content-type': 'application/json' }, JSON.stringify({ taskId: ID }));
  assert.is(cookieOnly.status, 401);
  assert.ok(existsSync(toPaths(root).taskFile('backlog', ID)), 'the task is still in backlog');
});

web('a foreign Host header is refused with 421 even with the token (DNS rebinding)', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const { web: address } = await startWebDaemon(root);
  for (const host of ['evil.example', `evil.example:${address.port}`, `127.0.0.1:${address.port + 1}`, 'localhost']) {
    const answer = await webRequest(address.port, 'POST', '/api/action/promote', { ...authed(address.token, address.port, true), host }, JSON.stringify({ taskId: ID }));
    assert.is(answer.status, 421, host);
  }
  assert.is((await webRequest(address.port, 'GET', '/', { ...authed(address.token, address.port), host: `localhost:${address.port}` })).status, 200);
  assert.ok(existsSync(toPaths(root).taskFile('backlog', ID)));
});

web('a state change by GET is refused and changes nothing', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const { web: address } = await startWebDaemon(root);
  const answer = await webRequest(address.port, 'GET', `/api/action/promote?taskId=${ID}`, authed(address.token, address.port, true));
  assert.is(answer.status, 400);
  assert.match(answer.text, /takes POST/);
  assert.ok(existsSync(toPaths(root).taskFile('backlog', ID)));
});

web('GET /metrics on the board\'s port needs the token too (a scraper sends it as a bearer) and answers in the Prometheus text format', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 2);
  const { web: address } = await startWebDaemon(root);
  assert.is((await webRequest(address.port, 'GET', '/metrics')).status, 401);
  assert.is((await webRequest(address.port, 'GET', '/metrics', { authorization: 'Bearer not-the-token' })).status, 401);
  const scraped = await webRequest(address.port, 'GET', '/metrics', { authorization: `Bearer ${address.token}` });
  assert.is(scraped.status, 200, scraped.text);
  assert.match(String(scraped.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  assert.match(scraped.text, /^# TYPE svc_tasks gauge$/m);
  assert.match(scraped.text, /^svc_tasks\{status="backlog"\} \d+$/m);
});

web('the logs of a task that does not exist, or of a prefix of several, are refused, not every line that contains it', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 2);
  const { web: address } = await startWebDaemon(root);
  const headers = authed(address.token, address.port);
  assert.is((await webRequest(address.port, 'GET', '/api/task/TASK-2026-01-01-999/log', headers)).status, 404);
  const prefix = await webRequest(address.port, 'GET', '/api/task/TASK-2026-01-01-00/log', headers);
  assert.is(prefix.status, 409, prefix.text);
  assert.match(JSON.parse(prefix.text).error.code, /ambiguous_id/);
});

web('the URL token becomes an HttpOnly SameSite=Strict cookie, and every answer carries the CSP and no CORS', async () => {
  const root = tempRoot();
  const { web: address } = await startWebDaemon(root);
  assert.is((statSync(toPaths(root).webToken).mode & 0o777), 0o600);
  const first = await webRequest(address.port, 'GET', `/?token=${address.token}&as=alice`, { origin: 'http://evil.example' });
  assert.is(first.status, 303);
  assert.is(first.headers.location, '/');
  const cookies = first.headers['set-cookie'] as string[];
  assert.ok(cookies.some((c) => c.startsWith(`svc_web_${address.port}=${address.token}`) && /HttpOnly/.test(c) && /SameSite=Strict/.test(c)), cookies.join(' | '));
  const page = await webRequest(address.port, 'GET', '/', { cookie: cookies.map((c) => c.split(';')[0]).join('; '), origin: 'http://evil.example' });
  assert.is(page.status, 200);
  assert.match(page.text, /<meta name="svc-actor" content="alice">/);
  for (const answer of [first, page, await webRequest(address.port, 'GET', '/api/meta')]) {
    assert.match(String(answer.headers['content-security-policy']), /default-src 'none'; script-src 'self'; style-src 'self'/);
    assert.is(answer.headers['access-control-allow-origin'], undefined);
  }
  assert.not.match(page.text, /<script>|<style>|style=/, 'nothing inline: the CSP allows none');
});

web('an action runs as the --as name through the operator tool, and its errors come back', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const { web: address } = await startWebDaemon(root);
  const headers = { ...authed(address.token, address.port, true), cookie: `svc_web_${address.port}=${address.token}; svc_web_as_${address.port}=alice` };
  const ok = await webRequest(address.port, 'POST', '/api/action/promote', headers, JSON.stringify({ taskId: ID }));
  assert.is(ok.status, 200, ok.text);
  assert.ok(existsSync(toPaths(root).taskFile('ready', ID)));
  const events = await readEventLog(root, { taskId: ID });
  assert.ok(events.some((event) => event.actor === 'alice'), JSON.stringify(events));
  const again = await webRequest(address.port, 'POST', '/api/action/resurrect', headers, JSON.stringify({ taskId: ID }));
  assert.is(again.status, 409, again.text);
  assert.match(JSON.parse(again.text).error.code, /invalid_transition/);
  const meta = JSON.parse((await webRequest(address.port, 'GET', '/api/meta', headers)).text);
  assert.equal(meta.actions.includes('approve'), false, 'no approval tools in this daemon: no approve button');
});

web('approve and reject are offered when the daemon has the approval tools, and reach them with the gate shown, the note and the actor', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const calls: unknown[] = [];
  const approval = (name: string) => ({ name, description: name, params: z.strictObject({ taskId: z.string(), gate: z.string().optional(), note: z.string().optional(), actor: z.string() }), handler: async (p: unknown) => (calls.push([name, p]), { ok: true }) });
  const { web: address } = await startWebDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS, approval('svc_task_approve'), approval('svc_task_reject')] as ToolDef[] });
  const headers = authed(address.token, address.port, true);
  const meta = JSON.parse((await webRequest(address.port, 'GET', '/api/meta', headers)).text);
  assert.ok(meta.actions.includes('approve') && meta.actions.includes('reject'), meta.actions.join(','));
  const answer = await webRequest(address.port, 'POST', '/api/action/reject', headers, JSON.stringify({ taskId: ID, gate: 'signoff', note: 'needs tests', reason: 'ignored' }));
  assert.is(answer.status, 200, answer.text);
  assert.equal(calls, [['svc_task_reject', { actor: 'operator', taskId: ID, gate: 'signoff', note: 'needs tests' }]]);
});

web('the stream starts with a snapshot, sends a hand move as a change, and resumes after the last event id', async () => {
  const root = tempRoot();
  const [a, b] = await writeTaskFiles(root, 2);
  const { daemon, web: address } = await startWebDaemon(root);
  await daemon.index.watching;
  const headers = authed(address.token, address.port);
  const paths = toPaths(root);
  const moveOnSnapshot = (event: { event: string }) => event.event === 'snapshot' && renameSync(paths.taskFile('backlog', a!), paths.taskFile('ready', a!));
  const events = await readEvents(address.port, '/api/board/stream', headers, (list) => list.some((e) => e.event === 'change' && e.data.upserts.some((c: any) => c.id === a && c.status === 'ready')), moveOnSnapshot);
  assert.is(events[0]!.event, 'snapshot');
  assert.equal(events[0]!.data.cards.map((c: any) => c.id).sort(), [a, b]);
  const change = events.find((e) => e.event === 'change')!;
  assert.match(change.id, new RegExp(`^${events[0]!.data.epoch}\\.\\d+$`));
  renameSync(paths.taskFile('backlog', b!), paths.taskFile('ready', b!));
  const resumed = await readEvents(address.port, '/api/board/stream', { ...headers, 'last-event-id': change.id }, (list) => list.some((e) => e.event === 'change' && e.data.upserts.some((c: any) => c.id === b)));
  assert.is(resumed[0]!.event, 'change', 'a resume replays the changes after its id, no snapshot');
  assert.ok(resumed.every((e) => e.data.seq > change.data.seq));
  const stale = await readEvents(address.port, '/api/board/stream', { ...headers, 'last-event-id': 'abcdef.3' }, (list) => list.length > 0);
  assert.is(stale[0]!.event, 'snapshot', 'an id of another daemon start gets a snapshot');
});

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

web('a hostile client on the web port (garbage, a huge body, streams dropped midway) leaves the daemon and the board serving', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const { web: address } = await startWebDaemon(root);
  const raw = (text: string) => new Promise<string>((resolve) => {
    const socket = connect(address.port, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk) => void (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
  });
  assert.match(await raw('GARBAGE\r\n\r\n'), /^HTTP\/1\.1 400/);
  const huge = await webRequest(address.port, 'POST', '/api/action/create', authed(address.token, address.port, true), JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) }));
  assert.is(huge.status, 413);
  const dropped = await Promise.all(Array.from({ length: 20 }, () => readEvents(address.port, '/api/board/stream', authed(address.token, address.port), (list) => list.length > 0)));
  assert.ok(dropped.every((list) => list[0]!.event === 'snapshot'));
  assert.is((await call(root, 'GET', '/healthz')).status, 200);
  const meta = await webRequest(address.port, 'GET', '/api/meta', authed(address.token, address.port));
  assert.is(meta.status, 200);
  assert.equal(readdirSync(toPaths(root).tasks + '/backlog').filter((name) => name.endsWith('.md')), ['TASK-2026-01-01-001.md'], 'nothing was created');
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
