import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatCount, formatUsage } from '../../../lib/cli/output/usage-format.js';
import { recordRunUsage } from '../../../lib/store/changes/usage.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { svc } from '../../helpers/cli.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const RUN = {
  run: 's-1',
  agent: 'coder',
  runtime: 'claude-code',
  model: 'claude-sonnet-5',
  cliSession: 'c-1',
  usage: { inputTokens: 12_000, outputTokens: 3_400, cacheReadTokens: 150_000, cacheWriteTokens: 0, costUsd: 0.25 },
};

const show = suite('cli.task show usage');
show.after.each(cleanRoots);

show("prints the task's usage: runs, tokens by kind and cost, in text and JSON", async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const { task } = await store.create({ title: 'Metered', createdBy: 'test' });
  await recordRunUsage(store, { ...RUN, taskId: task.id });
  await recordRunUsage(store, { ...RUN, taskId: task.id, run: 's-2', usage: { ...RUN.usage, costUsd: 0.5 } });
  const text = await svc(root, 'task', 'show', task.id);
  assert.is(text.code, 0, text.stderr);
  assert.match(
    text.stdout,
    '\nusage: 2 runs, 330,800 tokens (input 24,000, output 6,800, cache read 300,000, cache write 0), cost $0.75\n',
  );
  const json = JSON.parse((await svc(root, 'task', 'show', task.id, '--json')).stdout);
  assert.equal(json.usage, {
    inputTokens: 24_000,
    outputTokens: 6_800,
    cacheReadTokens: 300_000,
    cacheWriteTokens: 0,
    costUsd: 0.75,
    runs: 2,
    lastRun: 's-2',
  });
});

show(
  'an unknown cost shows as unknown, never $0; a task without usage has no usage line and null in JSON',
  async () => {
    const root = tempRoot();
    const store = createStore({ root });
    const { task } = await store.create({ title: 'Metered', createdBy: 'test' });
    const bare = await svc(root, 'task', 'show', task.id);
    assert.not.match(bare.stdout, 'usage:');
    assert.is(JSON.parse((await svc(root, 'task', 'show', task.id, '--json')).stdout).usage, null);
    await recordRunUsage(store, { ...RUN, taskId: task.id, usage: { ...RUN.usage, costUsd: null } });
    assert.match((await svc(root, 'task', 'show', task.id)).stdout, /\nusage: 1 run, .*, cost unknown\n/);
    assert.is(JSON.parse((await svc(root, 'task', 'show', task.id, '--json')).stdout).usage.costUsd, null);
  },
);

const format = suite('cli.formatUsage');

format('counts are grouped by thousands; a cost under a dollar keeps two significant digits', () => {
  assert.is(formatCount(0), '0');
  assert.is(formatCount(999), '999');
  assert.is(formatCount(1_234_567), '1,234,567');
  const usage = { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4, costUsd: 0.00123, runs: 1 };
  assert.is(formatUsage(usage), '1 run, 10 tokens (input 1, output 2, cache read 3, cache write 4), cost $0.0012');
});

show.run();
format.run();
