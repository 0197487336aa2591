/** Task priorities, lowest first. */
export const PRIORITIES = ['low', 'normal', 'high', 'critical'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** The priority a task gets when none is given. */
export const DEFAULT_PRIORITY: Priority = 'normal';

/** Higher number, dispatched sooner. Unknown values rank as normal. */
export function toPriorityRank(priority: string): number {
  const rank = (PRIORITIES as readonly string[]).indexOf(priority);
  return rank === -1 ? 1 : rank;
}
