import { readAgentPauses, type AgentPause } from '../store/records/agent-pauses.js';
import type { Paths } from '../store/disk/paths.js';
import { createFileCache } from './file-cache.js';
import { describeError } from '../core/errors.js';

/** The paused agents as the scheduler sees them: re-read whenever the file changes (one stat per use). */
export interface PauseReader {
  get(): Promise<ReadonlyMap<string, AgentPause>>;
  isPaused(agent: string): Promise<boolean>;
}

/**
 * Reads `data/agent-pauses.json` through a file cache, so a pause written by any process (the command
 * line, a hand edit) counts from the next plan on. A file that does not parse keeps the pauses read
 * before (logged once per change of the file): a broken edit never releases a paused agent.
 */
export function createPauseReader(paths: Paths, log: (line: string) => void): PauseReader {
  const cache = createFileCache<ReadonlyMap<string, AgentPause>>(paths.agentPauses, async (previous) => {
    try {
      return await readAgentPauses(paths);
    } catch (err) {
      log(`warning: ${describeError(err)}; keeping the pauses read before`);
      return previous ?? new Map();
    }
  });
  return {
    get: () => cache.get(),
    isPaused: async (agent) => (await cache.get()).has(agent),
  };
}
