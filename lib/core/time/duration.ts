import { SvcError } from '../errors.js';

/** Milliseconds of a duration such as `90s`, `30m`, `2h`, `30d` or `2w`; null for anything else. */
export function toDurationMs(value: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|min|h|d|w)$/.exec(value.trim());
  return match ? Number(match[1]) * UNITS[match[2]!]! : null;
}

/**
 * A point in time from an option: a duration back from `now` (`2h`, `30d`) or a date or time
 * (`2026-11-23`, `2026-11-23T08:00:00Z`). Anything else is a `validation_error` naming the option.
 */
export function toCutoff(value: string, now: Date, option: string): Date {
  const ms = toDurationMs(value);
  if (ms !== null) return new Date(now.getTime() - ms);
  const text = value.trim();
  const at = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isNaN(at)) return new Date(at);
  throw new SvcError(
    'validation_error',
    `${option} must be a duration back from now or a date (found ${JSON.stringify(value)}).`,
    `Pass a duration such as 30m, 2h, 7d or 2w, or a date or time such as 2026-11-23 or 2026-11-23T08:00:00Z.`,
  );
}

// --- internal ---

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
