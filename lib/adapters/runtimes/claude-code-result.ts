import { roundUsd, type Usage } from '../../core/usage.js';
import { toSvcToolName } from './claude-code-invocation.js';
import { type ParserState, recordOf, type StreamMessage, stringOf } from './claude-code-json.js';
import { addApiUsage, type ApiUsage } from './claude-code-usage.js';
import type { RunEvent } from './runtime.js';

/**
 * The events of the `result` line: the run's usage (its own: on a resumed session `total_cost_usd` and `modelUsage`
 * are the whole session's, so the run's cost comes from `model_usage_since_last_result`), the denials not reported
 * yet, and the run's outcome in the CLI's own words.
 */
export function resultEvents(state: ParserState, message: StreamMessage): RunEvent[] {
  const events: RunEvent[] = [{ kind: 'usage', ...runUsage(state, message) }];
  const denials = Array.isArray(message.permission_denials) ? message.permission_denials.map(recordOf) : [];
  for (const denial of denials) {
    const id = stringOf(denial.tool_use_id);
    if (id && state.denied.has(id)) continue;
    if (id) state.denied.add(id);
    const tool = toSvcToolName(stringOf(denial.tool_name) ?? 'unknown');
    events.push({ kind: 'denied', tool, message: `permission denied: ${tool}` });
  }
  const ok = message.is_error !== true && (message.subtype === undefined || message.subtype === 'success');
  events.push(ok ? { kind: 'result', ok } : { kind: 'result', ok, message: failure(message) });
  return events;
}

// --- internal ---

const NO_TOKENS: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null };

interface ModelUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
  costUSD?: number;
}

function runUsage(state: ParserState, message: StreamMessage): { usage: Usage; model?: string } {
  const since = Object.entries(recordOf(message.model_usage_since_last_result)) as [string, ModelUsage][];
  if (since.length > 0) {
    let usage: Usage = { ...NO_TOKENS, costUsd: 0 };
    for (const [, model] of since) {
      usage = addApiUsage(usage, toApiUsage(model));
      const cost = model.costUSD;
      usage.costUsd = usage.costUsd === null || typeof cost !== 'number' ? null : roundUsd(usage.costUsd + cost);
    }
    return since.length === 1 ? { usage, model: since[0]![0] } : { usage };
  }
  if (message.usage === undefined) return { usage: state.usage.total() };
  const usage = addApiUsage(NO_TOKENS, message.usage as ApiUsage);
  // the CLI's total is this run's only when every model's tokens are the run's tokens (a fresh session)
  const models = Object.values(recordOf(message.modelUsage)) as ModelUsage[];
  const seen = models.reduce((sum, model) => addApiUsage(sum, toApiUsage(model)), NO_TOKENS);
  const same = seen.inputTokens === usage.inputTokens && seen.outputTokens === usage.outputTokens;
  const cost = typeof message.total_cost_usd === 'number' && same ? roundUsd(message.total_cost_usd) : null;
  return { usage: { ...usage, costUsd: cost } };
}

function toApiUsage(model: ModelUsage): ApiUsage {
  return {
    input_tokens: model.inputTokens,
    output_tokens: model.outputTokens,
    cache_read_input_tokens: model.cacheReadInputTokens,
    cache_creation_input_tokens: model.cacheCreationInputTokens,
  };
}

/** The CLI's own words for a failed run: its result text (`API Error: ...`), its errors, else what stopped it. */
function failure(message: StreamMessage): string {
  const errors = Array.isArray(message.errors) ? message.errors.filter((e) => typeof e === 'string') : [];
  const text = stringOf(message.result)?.trim() || errors.join('; ');
  const subtype = stringOf(message.subtype) ?? 'error';
  if (subtype === 'error_max_turns') return `Claude Code stopped at its turn limit${text ? `: ${text}` : ''}`;
  if (subtype === 'error_max_budget_usd') return `Claude Code stopped at its spending limit${text ? `: ${text}` : ''}`;
  const reason = stringOf(message.terminal_reason);
  return text || `Claude Code ended with ${subtype}${reason ? ` (${reason})` : ''}`;
}
