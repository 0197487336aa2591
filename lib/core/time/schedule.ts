import { SvcError } from '../errors.js';

/** Milliseconds of each duration unit `toFutureTime` accepts. */
const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const EXAMPLES =
  'a duration from now such as 45s, 30m, 2h, 2d or 1w, or a date or time such as 2026-12-01 or 2026-12-01T09:00:00Z';

/**
 * The ISO time of `value` (`2h`, `2d`: from `now`; or a date or a date-time with its offset), for
 * the task fields `notBefore` and `dueAt`. `what` names the option in errors (`--not-before`).
 * A time that is not in the future is refused: it would hold or alert nothing.
 */
export function toFutureTime(value: string, now: Date, what: string): string {
  const text = value.trim();
  const duration = /^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$/.exec(text);
  if (duration) {
    const ms = Number(duration[1]) * UNITS[duration[2]!]!;
    if (!(ms > 0))
      throw new SvcError(
        'validation_error',
        `${what} ${JSON.stringify(value)} is a duration of zero: the time would be now, not in the future.`,
        `Pass ${EXAMPLES}.`,
      );
    return new Date(now.getTime() + ms).toISOString();
  }
  if (
    !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/i.test(text) ||
    Number.isNaN(Date.parse(text))
  ) {
    throw new SvcError(
      'validation_error',
      `${what} must be a duration or a time (found ${JSON.stringify(value)}).`,
      `Pass ${EXAMPLES} (a time of day needs its offset: Z or +01:00).`,
    );
  }
  const iso = new Date(Date.parse(text)).toISOString();
  return assertFutureTime(iso, now, { what, shown: iso === text ? iso : `${text} (${iso})` });
}

/** How a time is named in an error. */
export interface TimeLabel {
  /** The field the time was given for, e.g. `notBefore`. */
  what: string;
  /** The time as shown; `iso` when left out. */
  shown?: string;
}

/** Returns `iso` when it is after `now`; else a `validation_error` naming the time and now. */
export function assertFutureTime(iso: string, now: Date, label: TimeLabel): string {
  const { what, shown = iso } = label;
  const at = Date.parse(iso);
  if (Number.isNaN(at))
    throw new SvcError(
      'validation_error',
      `${what} must be an ISO-8601 time (found ${JSON.stringify(iso)}).`,
      `Pass ${EXAMPLES}.`,
    );
  if (at > now.getTime()) return iso;
  throw new SvcError(
    'validation_error',
    `${what} ${shown} is in the past (now is ${now.toISOString()}): ` +
      `a task cannot wait for or be due at a time already gone.`,
    `Pass a later time, or ${EXAMPLES}.`,
  );
}
