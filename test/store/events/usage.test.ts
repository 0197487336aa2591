import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SvcEvent } from '../../../lib/core/events.js';
import { NO_USAGE_SUM, addRun, sumUsageBy, toRunUsage } from '../../../lib/store/events/usage.js';

const PAYLOAD = {
  agent: 'coder',
  runtime: 'codex',
  model: 'gpt',
  sessionId: 'th-1',
  run: 's-1',
  inputTokens: 10,
  outputTokens: 5,
  cacheReadTokens: 2,
  cacheWriteTokens: 1,
  costUsd: 0.1,
};

const event = (payload: Record<string, unknown>, type = 'run.usage'): SvcEvent =>
  ({ timestamp: '2026-11-28T10:00:00.000Z', type, taskId: 'TASK-2026-11-28-001', actor: 'coder', payload }) as SvcEvent;

const read = suite('store.events.toRunUsage');

read('a run.usage event gives its run; other types and damaged payloads give null', () => {
  const run = toRunUsage(event(PAYLOAD));
  assert.is(run?.agent, 'coder');
  assert.is(run?.taskId, 'TASK-2026-11-28-001');
  assert.is(run?.costUsd, 0.1);
  assert.is(toRunUsage(event(PAYLOAD, 'task.created')), null);
  assert.is(toRunUsage(event({ ...PAYLOAD, inputTokens: '10' })), null);
  assert.is(toRunUsage(event({ ...PAYLOAD, outputTokens: -1 })), null);
  assert.is(toRunUsage(event({ ...PAYLOAD, agent: undefined })), null);
  assert.is(toRunUsage(event({ ...PAYLOAD, costUsd: 'free' })), null);
  assert.is(toRunUsage(event({ ...PAYLOAD, model: null }))?.model, null);
});

const sum = suite('store.events.sumUsageBy');

sum('sums runs per key; the cost turns unknown with the first unpriced run, the known part kept apart', () => {
  const runs = [PAYLOAD, { ...PAYLOAD, costUsd: null }, { ...PAYLOAD, agent: 'other', costUsd: 0.2 }].map(
    (payload) => toRunUsage(event(payload))!,
  );
  const sums = sumUsageBy(runs, (run) => run.agent);
  assert.equal(sums.get('coder'), {
    inputTokens: 20,
    outputTokens: 10,
    cacheReadTokens: 4,
    cacheWriteTokens: 2,
    costUsd: null,
    runs: 2,
    knownCostUsd: 0.1,
    unpricedRuns: 1,
  });
  assert.is(sums.get('other')?.costUsd, 0.2);
  assert.is(addRun(NO_USAGE_SUM, runs[2]!).costUsd, 0.2);
  assert.equal([...sums.keys()], ['coder', 'other']);
});

read.run();
sum.run();
