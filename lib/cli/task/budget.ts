import { SvcError } from '../../core/errors.js';
import { toUsageError } from '../frame/usage.js';

/** A task's budget as the options `--budget-usd` and `--budget-tokens` give it. */
export interface BudgetOption {
  usd?: number;
  tokens?: number;
}

/**
 * `{budget: {usd?, tokens?}}` of `--budget-usd <n>` and `--budget-tokens <n>`, or nothing when neither is given. A
 * value that is not a positive number (a whole one for tokens) is a usage error naming the option.
 */
export function toBudgetOption(opts: Record<string, unknown>, command: string): { budget?: BudgetOption } {
  const usd = toAmount(opts.budgetUsd, { flag: '--budget-usd', command, whole: false });
  const tokens = toAmount(opts.budgetTokens, { flag: '--budget-tokens', command, whole: true });
  if (usd === undefined && tokens === undefined) return {};
  return { budget: { ...(usd !== undefined ? { usd } : {}), ...(tokens !== undefined ? { tokens } : {}) } };
}

// --- internal ---

function toAmount(value: unknown, option: { flag: string; command: string; whole: boolean }): number | undefined {
  if (value === undefined) return undefined;
  const amount = typeof value === 'number' ? value : Number(String(value).replace(/^\$/, ''));
  const ok = Number.isFinite(amount) && amount > 0 && (!option.whole || Number.isInteger(amount));
  if (ok && typeof value !== 'boolean') return amount;
  const expected = option.whole ? 'a whole number of tokens greater than 0' : 'a number of dollars greater than 0';
  throw toUsageError(
    new SvcError(
      'validation_error',
      `${option.flag} needs ${expected} (found ${JSON.stringify(value)}).`,
      `For example: ${option.command} ${option.flag} ${option.whole ? '500000' : '2.50'}`,
    ),
  );
}
