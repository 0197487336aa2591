import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkDaemon } from '../../../lib/daemon/watchdog/check.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { call, closeDaemons, gate, gates, healthy, startChild, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

// The frozen daemon is a real process of the built bin/svc.js (run `npm run build` first).
const check = suite('daemon.checkDaemon');
check.after.each(async () => {
  gates.wait.open();
  await closeDaemons();
  cleanRoots();
});

check('a daemon whose every connection has a request in flight answered 503 busy: `busy`, not failed', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { schedule: false, limits: { maxConnections: 3 } });
  gates.wait = gate();
  const held: ReturnType<typeof call>[] = [];
  for (let i = 0; i < 3; i++) {
    gates.entered = gate();
    held.push(call(root, 'POST', '/v1/tool/invoke', { tool: 'test_wait', params: {} }, { timeoutMs: 30_000 }));
    await gates.entered.promise; // in flight: never closed to make room
  }
  const seen = await within(
    15_000,
    async () => {
      const result = await checkDaemon(toPaths(root), { timeoutMs: 2000 });
      return result.state === 'busy' ? result : null;
    },
    'the check sees the daemon busy',
  );
  assert.match(
    seen.reason ?? '',
    /daemon\.sock answered 503 busy \(The svc daemon is busy: all 3 open connections have a request in flight\)/,
  );
  gates.wait.open();
  for (const reply of await Promise.all(held)) assert.is(reply.status, 200, 'the requests in flight were answered');
  assert.is((await checkDaemon(toPaths(root))).state, 'healthy');
});

check('a frozen daemon (SIGSTOP) did not answer: `failed`, and the reason says it did not answer in time', async () => {
  const root = tempRoot();
  const child = startChild(root);
  const pid = await healthy(root);
  process.kill(pid, 'SIGSTOP');
  try {
    const result = await checkDaemon(toPaths(root), { timeoutMs: 500 });
    assert.is(result.state, 'failed');
    assert.match(result.reason ?? '', /does not answer \(.*no answer within 500 ms\)/);
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  await child.kill();
});

check.run();
