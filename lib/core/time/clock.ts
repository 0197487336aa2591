/** A clock: every decision takes `now` from one of these, never from `Date.now()` deep inside. */
export type Clock = () => Date;

/** The real clock. */
export const systemClock: Clock = () => new Date();

/** ISO-8601 UTC string of a date. */
export function toIso(date: Date): string {
  return date.toISOString();
}

/** Milliseconds from an ISO string; NaN when it does not parse. */
export function toMs(iso: string | undefined): number {
  return iso ? Date.parse(iso) : Number.NaN;
}

/**
 * A duration in the unit that fits: `45 s` under a minute, `12 min` under an hour, else `3.5 h` (one decimal at most).
 */
export function formatDuration(ms: number): string {
  const one = (value: number) => String(Math.round(value * 10) / 10);
  if (ms < 59_950) return `${one(ms / 1000)} s`;
  if (ms < 3_597_000) return `${one(ms / 60_000)} min`;
  return `${one(ms / 3_600_000)} h`;
}
