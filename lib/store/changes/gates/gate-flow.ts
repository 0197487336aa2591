import type { Caller } from '../lease.js';

/** Outcomes of a completion. */
export const OUTCOMES = ['complete', 'needs_review', 'blocked'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** What `svc_task_complete` receives. */
export interface CompleteInput extends Caller {
  summary?: string;
  outcome?: Outcome;
  blockers?: string[];
  callerRole?: string;
}

/** The part of a workflow definition that completion needs, with the org chart's role holders. */
export interface GateFlow {
  name: string;
  gates: readonly {
    id: string;
    role?: string | undefined;
    canReject?: boolean | undefined;
    approval?: boolean | undefined;
    verify?: readonly string[] | undefined;
  }[];
  /**
   * Who may complete a gate without `callerRole`: the org chart's agents and each role's agents; absent without an org
   * chart.
   */
  holders?: GateHolders | undefined;
}

/** The agents of the org chart and the agents of each role. */
export interface GateHolders {
  agents: readonly string[];
  roles: Readonly<Record<string, readonly string[]>>;
}

/** How a command reaches workflows: `loadFlow` resolves a workflow's name to its definition. */
export interface WithFlows {
  loadFlow: (name: string) => Promise<GateFlow>;
}
