/** The part of a workflow definition that completion needs, with the org chart's role holders. */
export interface GateFlow {
  name: string;
  gates: readonly { id: string; role?: string | undefined; canReject?: boolean | undefined; approval?: boolean | undefined; verify?: readonly string[] | undefined }[];
  /** Who may complete a gate without `callerRole`: the org chart's agents and each role's agents; absent without an org chart. */
  holders?: GateHolders | undefined;
}

/** The agents of the org chart and the agents of each role. */
export interface GateHolders {
  agents: readonly string[];
  roles: Readonly<Record<string, readonly string[]>>;
}
