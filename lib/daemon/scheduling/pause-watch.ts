import { statSync } from 'node:fs';
import { readAgentPauses, type AgentPause } from '../../store/records/agent-pauses.js';
import type { Paths } from '../../store/disk/paths.js';
import { describeError } from '../../core/errors.js';

/** The daemon's view of the paused agents, kept fresh from `data/agent-pauses.json`. */
export interface PauseWatch {
  /** The paused agents as last read (for `/status`). */
  current(): AgentPause[];
  close(): void;
}

/** Who hears of the pauses, and how often the file is looked at. */
export interface PauseWatchOptions {
  /** Gets one line per change. */
  log: (line: string) => void;
  /** Called after each change (asks for a tick). */
  onChange: () => void;
  /** Between two looks at the pause file (default 200 ms). */
  intervalMs?: number;
}

/**
 * Looks at the pause file every `intervalMs` (one stat; a read only when it changed), so a pause or
 * resume written by the command line, with or without this daemon, is seen within that time: each
 * change is logged and `onChange` asks for a tick (a resumed agent's tasks go at once).
 */
export function watchPauses(paths: Paths, { log, onChange, intervalMs = 200 }: PauseWatchOptions): PauseWatch {
  let stamp = '';
  let pauses: AgentPause[] = [];
  let reading = false;
  const look = async () => {
    const st = statSync(paths.agentPauses, { throwIfNoEntry: false });
    const next = st ? `${st.ino}:${st.size}:${st.mtimeMs}` : 'none';
    if (next === stamp || reading) return;
    reading = true;
    try {
      const read = [...(await readAgentPauses(paths)).values()];
      const first = stamp === '';
      stamp = next;
      if (!first)
        log(
          `agent pauses changed: ${read.length ? read.map((p) => p.agent).join(', ') : 'none'} ` +
            `paused (was ${pauses.length ? pauses.map((p) => p.agent).join(', ') : 'none'})`,
        );
      pauses = read;
      if (!first) onChange();
    } catch (err) {
      stamp = next; // logged once per version of the file; the scheduler keeps the pauses it read before
      log(`warning: ${describeError(err)}`);
    } finally {
      reading = false;
    }
  };
  void look();
  const timer = setInterval(() => void look(), intervalMs);
  timer.unref();
  return { current: () => pauses, close: () => clearInterval(timer) };
}
