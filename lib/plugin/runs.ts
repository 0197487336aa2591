/** Which spawn each gateway run started by the plugin belongs to, for the last `limit` runs. */
export interface RunRegistry {
  remember(runId: string, spawnId: string): void;
  spawnOf(runId: string | undefined): string | undefined;
}

/**
 * Creates an empty registry. Hooks use it to name the spawn of a run's `agent_end`, so the daemon
 * tells a late event of an earlier attempt (same session key) from the end of the current one.
 */
export function createRunRegistry(limit = 1000): RunRegistry {
  const spawns = new Map<string, string>();
  return {
    remember(runId, spawnId) {
      spawns.delete(runId);
      spawns.set(runId, spawnId);
      if (spawns.size > limit) spawns.delete(spawns.keys().next().value!);
    },
    spawnOf: (runId) => (runId ? spawns.get(runId) : undefined),
  };
}
