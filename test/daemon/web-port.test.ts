import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readOrCreateToken } from '../../lib/daemon/web-port.js';
import { createServer } from 'node:net';
import { TOOLS } from '../../lib/tools/index.js';
import { OPERATOR_TOOLS } from '../../lib/tools/operator.js';
import { startWebBoard } from '../../lib/web/server.js';
import { svc } from '../helpers/cli.js';
import { closeDaemons, call, startTestDaemon } from '../helpers/daemon.js';
import { startWebDaemon, webRequest } from '../helpers/web.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const token = suite('daemon.readOrCreateToken');
token.after.each(() => cleanRoots());

token('makes a 32-byte token with mode 0600 once, and keeps it across calls (restarts)', () => {
  const file = join(tempRoot(), 'web.token');
  const first = readOrCreateToken(file);
  assert.match(first, /^[A-Za-z0-9_-]{43}$/);
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.is(readOrCreateToken(file), first);
});

token('narrows a token file others may read to 0600, and replaces one that holds no token', () => {
  const file = join(tempRoot(), 'web.token');
  const first = readOrCreateToken(file);
  chmodSync(file, 0o644);
  assert.is(readOrCreateToken(file), first);
  assert.is(statSync(file).mode & 0o777, 0o600);
  writeFileSync(file, 'short\n');
  const second = readOrCreateToken(file);
  assert.is.not(second, 'short');
  assert.is(readFileSync(file, 'utf8').trim(), second);
});

token.run();

const open = suite('daemon.createWebPort');
open.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

open(
  'a daemon started without the board answers POST /v1/web with unavailable; a bad port is a validation error',
  async () => {
    const root = tempRoot();
    await startTestDaemon(root);
    const none = await call(root, 'POST', '/v1/web', {});
    assert.is(none.status, 503);
    assert.match(JSON.stringify(none.body), /without the web board/);
    const bad = await call(root, 'POST', '/v1/web', { port: 'eighty' });
    assert.is(bad.status, 400);
    assert.match(JSON.stringify(bad.body), /whole number from 0 to 65535/);
  },
);

open(
  "the board's port is in /status and svc daemon status, and a restarted daemon opens the board on the same port again (another when that one is taken)",
  async () => {
    const root = tempRoot();
    const first = await startWebDaemon(root);
    const port = first.web.port;
    const status = (await call(root, 'GET', '/status')).body as { web: { port: number; url: string } };
    assert.equal(status.web, { port, url: `http://127.0.0.1:${port}/` });
    const printed = await svc(root, 'daemon', 'status');
    assert.ok(
      printed.stdout.includes(
        `Web board: http://127.0.0.1:${port}/ (port ${port}; \`svc web\` prints it with its token)\n`,
      ),
      printed.stdout,
    );
    await first.daemon.close();
    const second = await startTestDaemon(root, {
      tools: [...TOOLS, ...OPERATOR_TOOLS],
      web: startWebBoard,
      schedule: false,
    });
    assert.is(
      ((await call(root, 'GET', '/status')).body as { web: { port: number } }).web.port,
      port,
      'reopened on its port, no svc web needed',
    );
    assert.is(
      (await webRequest(port, 'GET', '/api/meta', { 'x-svc-token': first.web.token })).status,
      200,
      "an open page's next request is answered",
    );
    await second.close();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], web: startWebBoard, schedule: false });
      const moved = ((await call(root, 'GET', '/status')).body as { web: { port: number } }).web.port;
      assert.is.not(moved, port);
      assert.is(readFileSync(join(root, 'data/web.port'), 'utf8'), `${moved}\n`);
    } finally {
      squatter.close();
    }
  },
);

open('a daemon whose board was never opened says so in /status and opens none at start', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { tools: [...TOOLS, ...OPERATOR_TOOLS], web: startWebBoard, schedule: false });
  assert.is(((await call(root, 'GET', '/status')).body as { web: unknown }).web, null);
  assert.match((await svc(root, 'daemon', 'status')).stdout, /\nWeb board: not open \(`svc web` opens it\)\n/);
});

open.run();
