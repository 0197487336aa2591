/**
 * Team-wide duties (murmur of a team, SLA alerts, OVERDUE alerts) among the daemons sharing one tree: each has one
 * owner at a time (see docs/several-hosts.md). Murmur and the SLA check run a duty only
 * while `owns` says so, take the state the last owner handed over, and save theirs for the next.
 */
export interface DutyGate {
  /** True while this daemon holds `duty`; the first ask starts claiming it (false until claimed). */
  owns(duty: string): boolean;
  /**
   * True when the last claim found another daemon holding `duty`. False while this daemon's first
   * claim is still under way (nobody known to hold it yet): what this daemon counted meanwhile is
   * still its own to hand on. Absent means "another daemon" whenever `owns` is false.
   */
  heldByOther?(duty: string): boolean;
  /** The state the previous owner saved, once, right after this daemon took `duty` over; else undefined. */
  handover(duty: string): unknown;
  /** Saves the duty's state for a later owner (nothing when another daemon holds it now). */
  save(duty: string, state: unknown): Promise<void>;
}

/** The duty name of a team's murmur. */
export function murmurDuty(teamId: string): string {
  return `murmur.${teamId}`;
}

/** The duty name of the SLA alerts. */
export const SLA_DUTY = 'sla';

/** The duty name of the OVERDUE alerts (tasks past `dueAt`). */
export const OVERDUE_DUTY = 'overdue';
