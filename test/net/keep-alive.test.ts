import type { Server } from 'node:http';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SvcError } from '../../lib/core/errors.js';
import { createLimitedServer, toServerLimits, type ServerLimits } from '../../lib/daemon/http/limits.js';
import { createSocketClient } from '../../lib/net/socket-client.js';
import { closeDaemons, startTestDaemon } from '../helpers/daemon.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

// The clients' kept connections against the daemon's own HTTP server and its limits.
const wording = (err: NodeJS.ErrnoException, socketPath: string) =>
  new SvcError('unavailable', `${err.code} on ${socketPath}: ${err.message}`);

let server: Server | undefined;
let connections = 0;

/** The daemon's server (its limits, these overrides) on a socket, answering every request at once. */
async function listen(overrides: Partial<ServerLimits> = {}): Promise<string> {
  const socket = join(tempRoot(), 'test.sock');
  connections = 0;
  server = createLimitedServer((_req, res) => res.writeHead(200).end('{"ok":true}'), toServerLimits(overrides));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server!.listen(socket, resolve));
  return socket;
}

const ok = (socket: string, client = createSocketClient(wording, { keepAlive: true })) =>
  client.request(socket, { method: 'GET', path: '/healthz' }).then(({ status }) => status);

const keep = suite('net.createSocketClient keep-alive');
keep.after.each(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  await closeDaemons();
  cleanRoots();
});

keep('a client makes 100 calls over one connection', async () => {
  const socket = await listen();
  const client = createSocketClient(wording, { keepAlive: true });
  for (let i = 0; i < 100; i++) assert.is(await ok(socket, client), 200);
  assert.is(connections, 1);
  const once = createSocketClient(wording);
  for (let i = 0; i < 2; i++) assert.is(await ok(socket, once), 200);
  await client.request(socket, { method: 'GET', path: '/healthz' }, { keepAlive: false });
  assert.is(connections, 4, 'without keep-alive (the default, or asked for one call), one connection per call');
});

keep('a kept connection the server closed is not a failed call: the next call goes over a new one', async () => {
  const socket = await listen();
  const client = createSocketClient(wording, { keepAlive: true });
  for (let i = 0; i < 20; i++) {
    assert.is(await ok(socket, client), 200);
    server!.closeIdleConnections(); // as the daemon does at its keep-alive deadline, or when it stops
  }
  assert.is(connections, 20);
});

keep("idle kept connections do not use up the server's connections: a new client still gets in", async () => {
  const socket = await listen({ maxConnections: 4 });
  const clients = Array.from({ length: 4 }, () => createSocketClient(wording, { keepAlive: true }));
  for (const client of clients) assert.is(await ok(socket, client), 200);
  assert.is(connections, 4);
  assert.is(await ok(socket), 200, 'the longest-idle connection made room');
  for (const client of clients) assert.is(await ok(socket, client), 200, 'each kept client still gets answers');
});

keep('a daemon with idle kept connections open stops at once, not after its drain time', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root, { schedule: false, drainTimeoutMs: 10_000 });
  const socket = toPaths(root).socket;
  const clients = Array.from({ length: 8 }, () => createSocketClient(wording, { keepAlive: true }));
  for (const client of clients) assert.is(await ok(socket, client), 200);
  const started = performance.now();
  await daemon.close();
  const ms = performance.now() - started;
  assert.ok(ms < 2000, `stopped in ${Math.round(ms)} ms`);
});

keep.run();
