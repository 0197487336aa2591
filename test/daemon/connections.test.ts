import { connect, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../lib/store/paths.js';
import { call, closeDaemons, gate, gates, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

const limits = suite('daemon.limitConnections');
const opened: Socket[] = [];
limits.after.each(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  await closeDaemons();
  cleanRoots();
});

/** Opens `count` connections to the daemon's socket that never send a byte; counts the ones the daemon closes. */
async function openIdle(root: string, count: number): Promise<{ closed: () => number }> {
  let closed = 0;
  await Promise.all(Array.from({ length: count }, () => new Promise<void>((resolve, reject) => {
    const socket = connect(toPaths(root).socket);
    opened.push(socket);
    socket.on('close', () => void closed++);
    socket.on('error', () => undefined); // a reset by the daemon is the point
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  })));
  return { closed: () => closed };
}

limits('300 connections that never speak neither crowd out a health check nor outlive the idle timeout', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { schedule: false, maxConnections: 20, idleTimeoutMs: 500 });
  const idle = await openIdle(root, 300);
  assert.is((await call(root, 'GET', '/healthz')).status, 200, 'the daemon keeps serving');
  assert.ok(idle.closed() >= 280, `past the cap the longest-idle are closed to make room (${idle.closed()} closed)`);
  await within(10_000, () => idle.closed() === 300, 'every idle connection closed');
  assert.is((await call(root, 'GET', '/status')).status, 200);
});

limits('a connection with a request in flight is never closed as idle nor evicted', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { schedule: false, maxConnections: 5, idleTimeoutMs: 300 });
  gates.entered = gate();
  gates.wait = gate();
  const slow = call(root, 'POST', '/v1/tool/invoke', { tool: 'test_wait', params: {} }, { timeoutMs: 30_000 }).catch((err: Error) => err);
  await gates.entered.promise;
  const idle = await openIdle(root, 40);
  await within(10_000, () => idle.closed() === 40, 'the idle connections closed, by eviction and by the timeout');
  gates.wait.open();
  const reply = await slow;
  assert.ok(!(reply instanceof Error), `the request in flight failed: ${String(reply)}`);
  assert.equal([(reply as { status: number }).status, (reply as { body: unknown }).body], [200, { ok: true, result: { waited: true } }]);
});

limits.run();
