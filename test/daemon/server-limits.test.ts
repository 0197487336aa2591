import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLimitedServer, DEFAULT_LIMITS, toServerLimits } from '../../lib/daemon/server-limits.js';

const readme = readFileSync(new URL('../../docs/daemon.md', import.meta.url), 'utf8');

const limits = suite('daemon.createLimitedServer');

limits('the defaults are what docs/daemon.md says: 10 s head, 30 s request, 5 s keep-alive, 256 connections, 64 and 32 long-polls', () => {
  assert.equal({ ...DEFAULT_LIMITS }, { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, maxConnections: 256, maxChangeWaits: 64, maxSpawnWaits: 32, checkIntervalMs: 1_000 });
  const row = (name: string) => readme.split('\n').find((line) => line.startsWith(`| ${name} |`)) ?? '';
  assert.match(row('request head (method, path, headers)'), /\| within 10 s of connecting \|/);
  assert.match(row('whole request, head and body'), /\| within 30 s of its first byte \|/);
  assert.match(row('idle keep-alive'), /\| 5 s after the last answer/);
  assert.match(row('connections open at once'), /\| 256 \|/);
  assert.match(row('held `GET /v1/tasks/changes` long-polls'), /\| 64 \| 429 `busy` with `Retry-After: 1`/);
  assert.match(row('held `GET /v1/spawns/wait` long-polls'), /\| 32 \| 429 `busy` with `Retry-After: 1`/);
  assert.match(readme, /Deadlines are checked every second/);
});

limits('hands the deadlines to the server; a head deadline past the request deadline waits for the latter', () => {
  const server = createLimitedServer(() => undefined, toServerLimits());
  assert.equal([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout], [10_000, 30_000, 5_000]);
  const odd = createLimitedServer(() => undefined, toServerLimits({ headersMs: 5000, requestMs: 2000 }));
  assert.equal([odd.headersTimeout, odd.requestTimeout], [2000, 2000]);
});

limits.run();
