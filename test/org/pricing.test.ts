import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Usage } from '../../lib/core/usage.js';
import { priceUsage, toCostUsd } from '../../lib/org/pricing.js';

const TOKENS: Usage = {
  inputTokens: 1_000_000,
  outputTokens: 200_000,
  cacheReadTokens: 500_000,
  cacheWriteTokens: 100_000,
  costUsd: null,
};

const PRICING = {
  'claude-sonnet-5': { inputUsdPerMTok: 3, outputUsdPerMTok: 15, cacheReadUsdPerMTok: 0.3, cacheWriteUsdPerMTok: 3.75 },
  'gpt-6': { inputUsdPerMTok: 2, outputUsdPerMTok: 8 },
};

const price = suite('org.priceUsage');

price('a model in the price table is priced by it, each kind of token at its own price', () => {
  const priced = priceUsage(TOKENS, 'claude-sonnet-5', PRICING);
  // 3 + 0.2 * 15 + 0.5 * 0.3 + 0.1 * 3.75
  assert.is(priced.costUsd, 6.525);
  assert.is(priced.inputTokens, TOKENS.inputTokens);
  assert.is(priced.cacheWriteTokens, TOKENS.cacheWriteTokens);
});

price("the table's price wins over the cost the CLI reported", () => {
  assert.is(priceUsage({ ...TOKENS, costUsd: 99 }, 'gpt-6', PRICING).costUsd, 2 + 1.6 + 1 + 0.2);
});

price('cache tokens without a price of their own count at the input price', () => {
  assert.is(toCostUsd({ ...TOKENS, inputTokens: 0, outputTokens: 0 }, PRICING['gpt-6']), 1.2);
});

price("a model not in the table keeps the CLI's own cost", () => {
  assert.is(priceUsage({ ...TOKENS, costUsd: 0.42 }, 'claude-opus-9', PRICING).costUsd, 0.42);
  assert.is(priceUsage({ ...TOKENS, costUsd: 0.42 }, null, PRICING).costUsd, 0.42);
});

price('with no price and no cost reported the cost is unknown (null), never 0', () => {
  assert.is(priceUsage(TOKENS, 'claude-opus-9', PRICING).costUsd, null);
  assert.is(priceUsage(TOKENS, null, {}).costUsd, null);
});

price('a model named like a property of every object is not priced by it', () => {
  assert.is(priceUsage(TOKENS, 'constructor', PRICING).costUsd, null);
  assert.is(priceUsage(TOKENS, '__proto__', PRICING).costUsd, null);
});

price('costs are rounded to a millionth of a dollar', () => {
  const one = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null };
  assert.is(priceUsage(one, 'claude-sonnet-5', PRICING).costUsd, 0.000018);
  assert.is(priceUsage({ ...one, outputTokens: 0 }, 'gpt-6', PRICING).costUsd, 0.000002);
});

price.run();
