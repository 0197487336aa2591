/** The longest delay `setTimeout` keeps (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * A timer delay for a wake-up `ms` from now: never negative, never past `MAX_TIMER_MS` (the wake-up then re-arms for
 * the rest).
 */
export function toTimerDelay(ms: number): number {
  return Math.min(MAX_TIMER_MS, Math.max(0, ms));
}
