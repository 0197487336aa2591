import type { Usage } from '../../core/usage.js';

/** A usage object of the Anthropic Messages API (`message_start`, `message_delta`, a result's `usage`). */
export interface ApiUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** The tokens of each model response of a run, by response id, summed into the run's usage so far. */
export interface ResponseUsage {
  /** Records a response's first usage; false when the response was already known (nothing new). */
  start(id: string | undefined, usage: ApiUsage | undefined): boolean;
  /** Replaces the counts a later frame of a response gives (`message_delta` has the final output tokens). */
  update(id: string | undefined, usage: ApiUsage | undefined): void;
  /** Every response so far; the cost is not known before the CLI's result. */
  total(): Usage;
}

/** An empty record of responses. */
export function createResponseUsage(): ResponseUsage {
  const responses = new Map<string, Required<ApiUsage>>();
  let last = '';
  return {
    start(id, usage) {
      const key = id ?? `#${responses.size}`;
      if (responses.has(key)) return false;
      responses.set(key, { ...ZERO, ...counts(usage) });
      last = key;
      return true;
    },
    update(id, usage) {
      const key = id ?? last;
      responses.set(key, { ...ZERO, ...responses.get(key), ...counts(usage) });
      last = key;
    },
    total() {
      let sum: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null };
      for (const usage of responses.values()) sum = { ...addApiUsage(sum, usage), costUsd: null };
      return sum;
    },
  };
}

/** `usage` plus the counts of an API usage (input without the cache reads, as the API reports it). */
export function addApiUsage(usage: Usage, api: ApiUsage): Usage {
  return {
    inputTokens: usage.inputTokens + (api.input_tokens ?? 0),
    outputTokens: usage.outputTokens + (api.output_tokens ?? 0),
    cacheReadTokens: usage.cacheReadTokens + (api.cache_read_input_tokens ?? 0),
    cacheWriteTokens: usage.cacheWriteTokens + (api.cache_creation_input_tokens ?? 0),
    costUsd: usage.costUsd,
  };
}

// --- internal ---

const ZERO: Required<ApiUsage> = {
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
};

/** The numeric counts of a usage object (a frame may carry only some of them). */
function counts(usage: ApiUsage | undefined): ApiUsage {
  const out: ApiUsage = {};
  for (const key of Object.keys(ZERO) as (keyof ApiUsage)[]) {
    const value = usage?.[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) out[key] = value;
  }
  return out;
}
