import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SvcError } from '../../lib/core/errors.js';
import { createSocketClient, toAnswerError } from '../../lib/net/socket-client.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// A real HTTP server on a Unix socket in a temp dir, answering by path as the daemon would.
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let server: Server | undefined;
const seen: Seen[] = [];
const hung: ServerResponse[] = [];

async function listen(): Promise<string> {
  const socket = join(tempRoot(), 'test.sock');
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answer(req.url ?? '', body, res);
    });
  });
  await new Promise<void>((resolve) => server!.listen(socket, resolve));
  return socket;
}

function answer(url: string, body: string, res: ServerResponse): void {
  if (url === '/hang') return void hung.push(res);
  if (url === '/empty') return void res.writeHead(204).end();
  if (url === '/text') return void res.writeHead(200, { 'x-kind': 'text' }).end('not json');
  if (url === '/v1/tool/invoke') {
    const { tool, params } = JSON.parse(body) as { tool: string; params: unknown };
    if (tool === 'echo') return void res.writeHead(200).end(JSON.stringify({ ok: true, result: params }));
    if (tool === 'locked')
      return void res
        .writeHead(409)
        .end(JSON.stringify({ ok: false, error: { code: 'locked', message: 'TASK-1 is locked', hint: 'Retry.' } }));
    return void res.writeHead(500).end();
  }
  res.writeHead(200).end(JSON.stringify({ ok: true, url }));
}

const wording = (err: NodeJS.ErrnoException, socketPath: string) =>
  new SvcError('unavailable', `${err.code} on ${socketPath}: ${err.message}`);
const client = createSocketClient(wording);

const test = suite('net.createSocketClient');
test.after.each(async () => {
  for (const res of hung.splice(0)) res.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  seen.length = 0;
  cleanRoots();
});

test('sends an object as JSON with its length and parses the JSON answer, headers included', async () => {
  const socket = await listen();
  const reply = await client.request(
    socket,
    { method: 'POST', path: '/x', body: { a: 'é' } },
    { headers: { 'x-svc-plugin': 'p1' } },
  );
  assert.equal([reply.status, reply.body], [200, { ok: true, url: '/x' }]);
  assert.equal(seen[0]!.body, '{"a":"é"}');
  assert.equal(
    [seen[0]!.headers['content-type'], seen[0]!.headers['content-length'], seen[0]!.headers['x-svc-plugin']],
    ['application/json', '10', 'p1'],
  );
  const text = await client.request(socket, { method: 'POST', path: '/x', body: '{"raw":true}' });
  assert.equal([text.status, seen[1]!.body], [200, '{"raw":true}']);
});

test('an empty answer is null and one that is not JSON is its text', async () => {
  const socket = await listen();
  assert.equal((await client.request(socket, { method: 'GET', path: '/empty' })).body, null);
  const text = await client.request(socket, { method: 'GET', path: '/text' });
  assert.equal([text.body, text.headers['x-kind']], ['not json', 'text']);
  assert.equal(
    seen.map((s) => [s.method, s.headers['content-type']]),
    [
      ['GET', undefined],
      ['GET', undefined],
    ],
  );
});

test('invoke returns the tool result and throws the daemon error by its code, an unshaped answer as internal', async () => {
  const socket = await listen();
  assert.equal(await client.invoke(socket, { tool: 'echo', params: { taskId: 'TASK-1' } }), { taskId: 'TASK-1' });
  const locked = await client.invoke(socket, { tool: 'locked', params: {} }).catch((err: SvcError) => err);
  assert.ok(locked instanceof SvcError);
  assert.equal([locked.code, locked.message, locked.hint], ['locked', 'TASK-1 is locked', 'Retry.']);
  const bare = await client.invoke(socket, { tool: 'other', params: {} }).catch((err: SvcError) => err);
  assert.equal([bare.code, bare.message], ['internal', 'The svc daemon answered HTTP 500 without an error body.']);
});

test('a missing socket, a silent daemon and an abort reach the wording with the system code', async () => {
  const socket = await listen();
  const missing = await client
    .request(join(socket, '..', 'none.sock'), { method: 'GET', path: '/x' })
    .catch((err: Error) => err);
  assert.match(missing.message, /^ENOENT on .*none\.sock/);
  const silent = await client
    .request(socket, { method: 'GET', path: '/hang' }, { timeoutMs: 200 })
    .catch((err: Error) => err);
  assert.match(silent.message, /^ETIMEDOUT on .*test\.sock: no answer within 200 ms$/);
  const controller = new AbortController();
  const aborted = client
    .request(socket, { method: 'GET', path: '/hang' }, { signal: controller.signal })
    .catch((err: Error) => err);
  await within(15_000, () => hung.length === 2, 'the second request to arrive');
  controller.abort();
  assert.match((await aborted).message, /^ABORT_ERR on /);
});

test('toAnswerError keeps only the known wire codes', () => {
  assert.equal(toAnswerError(418, { error: { code: 'teapot', message: 'no' } }).code, 'internal');
  assert.equal(toAnswerError(404, { error: { code: 'not_found', message: 'TASK-9 not found' } }).code, 'not_found');
});

test.run();
