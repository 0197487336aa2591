import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SvcError } from '../../../lib/core/errors.js';
import { createLimitedServer, DEFAULT_LIMITS, toServerLimits } from '../../../lib/daemon/http/limits.js';

const readme = readFileSync(new URL('../../../docs/daemon.md', import.meta.url), 'utf8');

const limits = suite('daemon.createLimitedServer');

limits(
  'the defaults are what docs/daemon.md says: 10 s head, 30 s request, 5 s keep-alive, 256 connections, 64 and 32 long-polls',
  () => {
    assert.equal(
      { ...DEFAULT_LIMITS },
      {
        headersMs: 10_000,
        requestMs: 30_000,
        keepAliveMs: 5_000,
        maxConnections: 256,
        maxChangeWaits: 64,
        maxSpawnWaits: 32,
        checkIntervalMs: 1_000,
      },
    );
    const row = (name: string) => readme.split('\n').find((line) => line.startsWith(`| ${name} |`)) ?? '';
    assert.match(row('request head (method, path, headers)'), /\| within 10 s of connecting \|/);
    assert.match(row('whole request, head and body'), /\| within 30 s of its first byte \|/);
    assert.match(row('idle keep-alive'), /\| 5 s after the last answer/);
    assert.match(row('connections open at once'), /\| 256 \|/);
    assert.match(row('held `GET /v1/tasks/changes` long-polls'), /\| 64 \| 429 `busy` with `Retry-After: 1`/);
    assert.match(row('held `GET /v1/spawns/wait` long-polls'), /\| 32 \| 429 `busy` with `Retry-After: 1`/);
    assert.match(readme, /Deadlines are checked every second/);
  },
);

limits('hands the deadlines to the server; a head deadline past the request deadline waits for the latter', () => {
  const server = createLimitedServer(() => undefined, toServerLimits());
  assert.equal([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout], [10_000, 30_000, 5_000]);
  const odd = createLimitedServer(() => undefined, toServerLimits({ headersMs: 5000, requestMs: 2000 }));
  assert.equal([odd.headersTimeout, odd.requestTimeout], [2000, 2000]);
});

limits('a handler that throws, at once or later, is a 500 for that request and the server serves on', async () => {
  const failures: string[] = [];
  const server = createLimitedServer(
    (req) => {
      if (req.url === '/sync') throw new Error('thrown at once');
      if (req.url === '/async') return Promise.reject(new TypeError('thrown later')) as never;
      throw new SvcError('not_found', 'no such page');
    },
    toServerLimits(),
    { onFailure: (err) => failures.push(err.message) },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    assert.equal(await Promise.all(['/sync', '/async', '/other'].map((path) => statusOf(port, path))), [500, 500, 404]);
    assert.equal(
      failures.sort(),
      ['thrown at once', 'thrown later'],
      "a failure of the server is told; a client's mistake is not",
    );
  } finally {
    server.close();
    server.closeAllConnections();
  }
});

limits.run();

// --- internal ---

function statusOf(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}
