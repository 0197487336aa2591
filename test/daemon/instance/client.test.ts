import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SvcError } from '../../../lib/core/errors.js';
import { invokeDaemon, requestDaemon } from '../../../lib/daemon/instance/client.js';
import { invokeOverSocket, isUnreachable, requestSocket } from '../../../lib/plugin/socket.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

// The daemon's own clients and the plugin share one socket client; each words a daemon that does
// not answer for its reader: the operator at a terminal, or whoever runs the gateway.
let server: Server | undefined;

const test = suite('daemon.requestDaemon');
test.after.each(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  cleanRoots();
});

test('a missing socket is unavailable: not running for the command line, unreachable for the plugin', async () => {
  const socket = join(tempRoot(), 'data/daemon.sock');
  const cli = await requestDaemon(socket, { method: 'GET', path: '/healthz' }).catch((err: SvcError) => err);
  assert.equal(
    [cli.code, cli.message, cli.hint],
    [
      'unavailable',
      `The svc daemon is not running (nothing answers on ${socket}).`,
      'Start it with `svc daemon start`.',
    ],
  );
  const plugin = await requestSocket(socket, { method: 'GET', path: '/healthz' }).catch((err: SvcError) => err);
  assert.equal([plugin.code, plugin.message], ['unavailable', `daemon unreachable: nothing answers on ${socket}.`]);
  assert.ok(isUnreachable(plugin));
  assert.not.ok(isUnreachable(cli));
});

test('a daemon that does not answer in time names the wait; an abort reaches the plugin as it is', async () => {
  const socket = join(tempRoot(), 'test.sock');
  server = createServer(() => undefined);
  await new Promise<void>((resolve) => server!.listen(socket, resolve));
  const cli = await requestDaemon(socket, { method: 'GET', path: '/status' }, { timeoutMs: 150 }).catch(
    (err: SvcError) => err,
  );
  assert.equal(cli.message, `The svc daemon did not answer on ${socket} (no answer within 150 ms).`);
  const plugin = await requestSocket(socket, { method: 'GET', path: '/status' }, { timeoutMs: 150 }).catch(
    (err: SvcError) => err,
  );
  assert.equal(plugin.message, `The svc daemon did not answer on ${socket} in time.`);
  const controller = new AbortController();
  const pending = invokeOverSocket(socket, { tool: 'svc_status', params: {} }, controller.signal).catch(
    (err: Error) => err,
  );
  controller.abort();
  assert.equal((await pending).name, 'AbortError');
});

test('both invoke a tool through the same call and read its error the same way', async () => {
  const socket = join(tempRoot(), 'test.sock');
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { tool } = JSON.parse(body) as { tool: string };
      if (tool === 'svc_status') return void res.writeHead(200).end(JSON.stringify({ ok: true, result: { total: 3 } }));
      res
        .writeHead(404)
        .end(
          JSON.stringify({ ok: false, error: { code: 'not_found', message: 'TASK-9 not found', hint: 'List tasks.' } }),
        );
    });
  });
  await new Promise<void>((resolve) => server!.listen(socket, resolve));
  assert.equal(await invokeDaemon(socket, 'svc_status'), { total: 3 });
  assert.equal(await invokeOverSocket(socket, { tool: 'svc_status', params: {} }), { total: 3 });
  // Both in flight at once, each caught at once (the plugin's kept connection may answer first).
  for (const call of [
    invokeDaemon(socket, 'svc_task_update', {}).catch((e: SvcError) => e),
    invokeOverSocket(socket, { tool: 'svc_task_update', params: {} }).catch((e: SvcError) => e),
  ]) {
    const err = await call;
    assert.equal(
      [err instanceof SvcError, (err as SvcError).code, (err as Error).message],
      [true, 'not_found', 'TASK-9 not found'],
    );
  }
});

test.run();
