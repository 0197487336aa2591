import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readOrCreateToken } from '../../lib/daemon/web-port.js';
import { closeDaemons, call, startTestDaemon } from '../helpers/daemon.js';
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

open('a daemon started without the board answers POST /v1/web with unavailable; a bad port is a validation error', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  const none = await call(root, 'POST', '/v1/web', {});
  assert.is(none.status, 503);
  assert.match(JSON.stringify(none.body), /without the web board/);
  const bad = await call(root, 'POST', '/v1/web', { port: 'eighty' });
  assert.is(bad.status, 400);
  assert.match(JSON.stringify(bad.body), /whole number from 0 to 65535/);
});

open.run();
