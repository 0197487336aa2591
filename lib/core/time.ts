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
