import { existsSync, readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../lib/store/disk/paths.js';
import { call, closeDaemons, writeTaskFiles } from '../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';
import { authed, readEvents, startWebDaemon, webRequest } from '../helpers/web.js';

// The web board's guard: token, Host, cookie, CSP and hostile clients. Actions, the stream and
// svc web: server-actions.test.ts.
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
  for (const path of [
    '/',
    '/agents',
    `/task/${ID}`,
    '/api/meta',
    '/api/board/stream',
    `/api/task/${ID}`,
    '/assets/app.js',
  ]) {
    const answer = await webRequest(address.port, 'GET', path);
    assert.is(answer.status, 401, path);
    assert.match(answer.text, /svc web/);
  }
  const wrong = await webRequest(address.port, 'GET', '/?token=not-the-token');
  assert.is(wrong.status, 401);
  const post = await webRequest(
    address.port,
    'POST',
    '/api/action/promote',
    { 'content-type': 'application/json' },
    JSON.stringify({ taskId: ID }),
  );
  assert.is(post.status, 401);
  // The cookie alone does not carry a change: the token header is what the page's own script adds.
  const cookieOnly = await webRequest(
    address.port,
    'POST',
    '/api/action/promote',
    { cookie: `svc_web_${address.port}=${address.token}`, 'content-type': 'application/json' },
    JSON.stringify({ taskId: ID }),
  );
  assert.is(cookieOnly.status, 401);
  assert.ok(existsSync(toPaths(root).taskFile('backlog', ID)), 'the task is still in backlog');
});

web('a foreign Host header is refused with 421 even with the token (DNS rebinding)', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const { web: address } = await startWebDaemon(root);
  for (const host of ['evil.example', `evil.example:${address.port}`, `127.0.0.1:${address.port + 1}`, 'localhost']) {
    const answer = await webRequest(
      address.port,
      'POST',
      '/api/action/promote',
      { ...authed(address.token, address.port, true), host },
      JSON.stringify({ taskId: ID }),
    );
    assert.is(answer.status, 421, host);
  }
  assert.is(
    (
      await webRequest(address.port, 'GET', '/', {
        ...authed(address.token, address.port),
        host: `localhost:${address.port}`,
      })
    ).status,
    200,
  );
  assert.ok(existsSync(toPaths(root).taskFile('backlog', ID)));
});

web('a state change by GET is refused and changes nothing', async () => {
  const root = tempRoot();
  await writeTaskFiles(root, 1);
  const { web: address } = await startWebDaemon(root);
  const answer = await webRequest(
    address.port,
    'GET',
    `/api/action/promote?taskId=${ID}`,
    authed(address.token, address.port, true),
  );
  assert.is(answer.status, 400);
  assert.match(answer.text, /takes POST/);
  assert.ok(existsSync(toPaths(root).taskFile('backlog', ID)));
});

web(
  "GET /metrics on the board's port needs the token too (a scraper sends it as a bearer) and answers in the Prometheus text format",
  async () => {
    const root = tempRoot();
    await writeTaskFiles(root, 2);
    const { web: address } = await startWebDaemon(root);
    assert.is((await webRequest(address.port, 'GET', '/metrics')).status, 401);
    assert.is(
      (await webRequest(address.port, 'GET', '/metrics', { authorization: 'Bearer not-the-token' })).status,
      401,
    );
    const scraped = await webRequest(address.port, 'GET', '/metrics', { authorization: `Bearer ${address.token}` });
    assert.is(scraped.status, 200, scraped.text);
    assert.match(String(scraped.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    assert.match(scraped.text, /^# TYPE svc_tasks gauge$/m);
    assert.match(scraped.text, /^svc_tasks\{status="backlog"\} \d+$/m);
  },
);

web(
  'the logs of a task that does not exist, or of a prefix of several, are refused, not every line that contains it',
  async () => {
    const root = tempRoot();
    await writeTaskFiles(root, 2);
    const { web: address } = await startWebDaemon(root);
    const headers = authed(address.token, address.port);
    assert.is((await webRequest(address.port, 'GET', '/api/task/TASK-2026-01-01-999/log', headers)).status, 404);
    const prefix = await webRequest(address.port, 'GET', '/api/task/TASK-2026-01-01-00/log', headers);
    assert.is(prefix.status, 409, prefix.text);
    assert.match(JSON.parse(prefix.text).error.code, /ambiguous_id/);
  },
);

web(
  'the URL token becomes an HttpOnly SameSite=Strict cookie, and every answer carries the CSP and no CORS',
  async () => {
    const root = tempRoot();
    const { web: address } = await startWebDaemon(root);
    assert.is(statSync(toPaths(root).webToken).mode & 0o777, 0o600);
    const first = await webRequest(address.port, 'GET', `/?token=${address.token}&as=alice`, {
      origin: 'http://evil.example',
    });
    assert.is(first.status, 303);
    assert.is(first.headers.location, '/');
    const cookies = first.headers['set-cookie'] as string[];
    assert.ok(
      cookies.some(
        (c) =>
          c.startsWith(`svc_web_${address.port}=${address.token}`) && /HttpOnly/.test(c) && /SameSite=Strict/.test(c),
      ),
      cookies.join(' | '),
    );
    const page = await webRequest(address.port, 'GET', '/', {
      cookie: cookies.map((c) => c.split(';')[0]).join('; '),
      origin: 'http://evil.example',
    });
    assert.is(page.status, 200);
    assert.match(page.text, /<meta name="svc-actor" content="alice">/);
    for (const answer of [first, page, await webRequest(address.port, 'GET', '/api/meta')]) {
      assert.match(
        String(answer.headers['content-security-policy']),
        /default-src 'none'; script-src 'self'; style-src 'self'/,
      );
      assert.is(answer.headers['access-control-allow-origin'], undefined);
    }
    assert.not.match(page.text, /<script>|<style>|style=/, 'nothing inline: the CSP allows none');
  },
);

web(
  'a hostile client on the web port (garbage, a huge body, streams dropped midway) leaves the daemon and the board serving',
  async () => {
    const root = tempRoot();
    await writeTaskFiles(root, 1);
    const { web: address } = await startWebDaemon(root);
    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(address.port, '127.0.0.1', () => socket.end(text));
        let answer = '';
        socket.on('data', (chunk) => void (answer += chunk.toString()));
        socket.on('close', () => resolve(answer));
        socket.on('error', () => resolve(answer));
      });
    assert.match(await raw('GARBAGE\r\n\r\n'), /^HTTP\/1\.1 400/);
    const huge = await webRequest(
      address.port,
      'POST',
      '/api/action/create',
      authed(address.token, address.port, true),
      JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) }),
    );
    assert.is(huge.status, 413);
    const dropped = await Promise.all(
      Array.from({ length: 20 }, () =>
        readEvents(address.port, '/api/board/stream', authed(address.token, address.port), (list) => list.length > 0),
      ),
    );
    assert.ok(dropped.every((list) => list[0]!.event === 'snapshot'));
    assert.is((await call(root, 'GET', '/healthz')).status, 200);
    const meta = await webRequest(address.port, 'GET', '/api/meta', authed(address.token, address.port));
    assert.is(meta.status, 200);
    assert.equal(
      readdirSync(toPaths(root).tasks + '/backlog').filter((name) => name.endsWith('.md')),
      ['TASK-2026-01-01-001.md'],
      'nothing was created',
    );
  },
);

web.run();
