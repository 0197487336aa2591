import { roundUsd, type Usage } from '../core/usage.js';
import type { Price } from './runtimes.js';

/**
 * The usage with its cost: from the price table (`aof.pricing`) when `model` is in it, else the cost the CLI reported
 * (`usage.costUsd`), else null (unknown, never 0). Cache reads and writes without a price of their own are counted at
 * the input price: a cost that may be high, never one that is low.
 */
export function priceUsage(usage: Readonly<Usage>, model: string | null, pricing: Record<string, Price>): Usage {
  const price = model !== null && Object.hasOwn(pricing, model) ? pricing[model] : undefined;
  if (!price) return { ...usage, costUsd: usage.costUsd ?? null };
  return { ...usage, costUsd: toCostUsd(usage, price) };
}

/** What `usage` costs at `price`, rounded to a millionth of a dollar. */
export function toCostUsd(usage: Readonly<Usage>, price: Readonly<Price>): number {
  const input = price.inputUsdPerMTok;
  const usd =
    usage.inputTokens * input +
    usage.outputTokens * price.outputUsdPerMTok +
    usage.cacheReadTokens * (price.cacheReadUsdPerMTok ?? input) +
    usage.cacheWriteTokens * (price.cacheWriteUsdPerMTok ?? input);
  return roundUsd(usd / 1e6);
}
