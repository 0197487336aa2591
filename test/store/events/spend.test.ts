import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Usage } from '../../../lib/core/usage.js';
import { createSpendLedger, loadSpendLedger } from '../../../lib/store/events/spend.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const usage = (costUsd: number | null, tokens = 100): Usage => ({
  inputTokens: tokens / 2,
  outputTokens: tokens / 4,
  cacheReadTokens: tokens / 4,
  cacheWriteTokens: 0,
  costUsd,
});
const at = (iso: string) => new Date(iso);

const ledger = suite('store.events.createSpendLedger');

ledger('sums an agent’s runs by UTC day and month, every token of a usage counted', () => {
  const spend = createSpendLedger();
  spend.record('coder', usage(1.5, 400), at('2026-11-28T23:59:00Z'));
  spend.record('coder', usage(2.25, 200), at('2026-11-29T00:01:00Z'));
  spend.record('coder', usage(4, 100), at('2026-10-31T12:00:00Z'));
  const now = at('2026-11-29T10:00:00Z');
  assert.equal(spend.spentBy(['coder'], 'day', now), { usd: 2.25, tokens: 200 });
  assert.equal(spend.spentBy(['coder'], 'month', now), { usd: 3.75, tokens: 600 });
  assert.equal(spend.spentBy(['other'], 'month', now), { usd: 0, tokens: 0 });
});

ledger('a team’s spend is its members’, each counted once; an unknown cost adds tokens only', () => {
  const spend = createSpendLedger();
  const now = at('2026-11-29T10:00:00Z');
  spend.record('a', usage(1), now);
  spend.record('b', usage(null, 1000), now);
  spend.record('c', usage(5), now);
  assert.equal(spend.spentBy(['a', 'b', 'a'], 'day', now), { usd: 1, tokens: 1100 });
});

ledger('a run under way counts until it ends; its usage so far replaces the last one told', () => {
  const spend = createSpendLedger();
  const now = at('2026-11-29T10:00:00Z');
  spend.live('run-1', 'coder', usage(0.5, 100));
  spend.live('run-1', 'coder', usage(0.75, 300));
  assert.equal(spend.spentBy(['coder'], 'day', now), { usd: 0.75, tokens: 300 });
  spend.live('run-1', 'coder', null);
  assert.equal(spend.spentBy(['coder'], 'day', now), { usd: 0, tokens: 0 });
});

ledger('observe counts the run.usage events of a batch and nothing else', () => {
  const spend = createSpendLedger();
  const now = at('2026-11-29T10:00:00Z');
  spend.observe(
    [
      { type: 'task.updated', actor: 'x', payload: { fields: ['title'] } },
      {
        type: 'run.usage',
        actor: 'system',
        payload: { agent: 'coder', runtime: 'codex', model: 'm', sessionId: null, run: 'r-1', ...usage(0.2, 40) },
      },
    ],
    now,
  );
  assert.equal(spend.spentBy(['coder'], 'day', now), { usd: 0.2, tokens: 40 });
});

const load = suite('store.events.loadSpendLedger');

load('seeds from the run.usage events of this UTC month in the event log, a torn line skipped', async () => {
  const root = tempRoot();
  await mkdir(join(root, 'data', 'events'), { recursive: true });
  const line = (timestamp: string, agent: string, costUsd: number | null) =>
    `${JSON.stringify({ timestamp, type: 'run.usage', actor: 'system', payload: { agent, run: 'r', ...usage(costUsd) } })}\n`;
  await writeFile(join(root, 'data', 'events', '2026-10-31.jsonl'), line('2026-10-31T12:00:00.000Z', 'coder', 9));
  await writeFile(
    join(root, 'data', 'events', '2026-11-28.jsonl'),
    line('2026-11-28T12:00:00.000Z', 'coder', 1) + line('2026-11-28T13:00:00.000Z', 'coder', null),
  );
  await writeFile(
    join(root, 'data', 'events', '2026-11-29.jsonl'),
    `${line('2026-11-29T01:00:00.000Z', 'coder', 2)}{"timestamp":"2026-11-29T01:0`,
  );
  const spend = await loadSpendLedger(root, at('2026-11-29T10:00:00Z'));
  const now = at('2026-11-29T10:00:00Z');
  assert.equal(spend.spentBy(['coder'], 'day', now), { usd: 2, tokens: 100 });
  assert.equal(spend.spentBy(['coder'], 'month', now), { usd: 3, tokens: 300 });
});

load.after(cleanRoots);

ledger.run();
load.run();
