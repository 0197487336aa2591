import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { call, closeDaemons, startTestDaemon } from '../../helpers/daemon.js';
import { killHostiles, startHostile } from '../../helpers/hostile.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const budget = suite('daemon.createLongPollBudget');
budget.after.each(async () => {
  await killHostiles();
  await closeDaemons();
  cleanRoots();
});

budget(
  '300 held long-polls: past their budgets they are answered 429 with Retry-After at once; /healthz and a create are not held up',
  async () => {
    const root = tempRoot();
    const socket = toPaths(root).socket;
    // the default budgets (64 change waits, 32 spawn waits) and a spawn wait held as long as in production
    await startTestDaemon(root, { schedule: false, spawnWaitMs: 25_000 });
    const changes = startHostile({ socket, kind: 'changes', count: 150, everyMs: 0, reconnect: false });
    const spawns = startHostile({ socket, kind: 'spawns', count: 150, everyMs: 0, reconnect: false });
    // 300 connections pass the cap of 256: the rest of each kind is answered 429, or closed to make room
    const held = await changes.until(
      (s) => s.open === 64 && s.closed === 150 - 64,
      '64 change waits held, the rest answered 429 or closed',
      15_000,
    );
    const heldSpawns = await spawns.until(
      (s) => s.open === 32 && s.closed === 150 - 32,
      '32 spawn waits held, the rest answered 429 or closed',
      15_000,
    );
    for (const stats of [held, heldSpawns]) {
      assert.ok((stats.statuses['429'] ?? 0) >= 100 - 64, `most are answered 429 (${JSON.stringify(stats)})`);
      assert.equal(Object.keys(stats.statuses), ['429'], 'nothing else is answered while held');
      assert.is(stats.retryAfter, stats.statuses['429'], 'every 429 carries Retry-After');
    }
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      assert.is((await call(root, 'GET', '/healthz', undefined, { timeoutMs: 10_000 })).status, 200);
      latencies.push(performance.now() - started);
    }
    const created = await call(root, 'POST', '/v1/tool/invoke', {
      tool: 'test_create',
      params: { title: 'Made beside 300 long-polls' },
    });
    assert.is(created.status, 200, JSON.stringify(created.body));
    // the change waits held are woken by that create, and their places are free again
    await changes.until(
      (s) => s.statuses['200'] === 64 && s.open === 0,
      'the held change waits answered by the create',
    );
    const again = await call(root, 'GET', '/v1/tasks/changes?after=-1&waitMs=0');
    assert.is(again.status, 200);
    const sorted = latencies.sort((a, b) => a - b);
    const [median, max] = [sorted[10]!, sorted.at(-1)!];
    console.log(
      `  /healthz beside 96 held long-polls and 204 refused: median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms`,
    );
    assert.ok(median < 100 && max < 1500, `median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms`);
  },
);

budget('a long-poll past the budget is refused with the busy error shape and a hint', async () => {
  const root = tempRoot();
  await startTestDaemon(root, { schedule: false, limits: { maxChangeWaits: 1 } });
  const held = call(root, 'GET', '/v1/tasks/changes?after=999&waitMs=2000');
  let refused = await call(root, 'GET', '/v1/tasks/changes?after=999&waitMs=2000');
  for (let i = 0; refused.status === 200 && i < 50; i++)
    refused = await call(root, 'GET', '/v1/tasks/changes?after=999&waitMs=2000');
  assert.is(refused.status, 429);
  const { error } = refused.body as { error: { code: string; message: string; hint: string } };
  assert.is(error.code, 'busy');
  assert.match(error.message, /GET \/v1\/tasks\/changes already holds 1 long-polls/);
  assert.match(error.hint, /Retry-After/);
  assert.is((await held).status, 200);
});

budget.run();
