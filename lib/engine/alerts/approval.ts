import { toTerminalText } from '../../core/text.js';
import type { IndexChange, IndexEntry } from '../../store/index/tasks.js';

/** What the approval alerts read and write. */
export interface ApprovalAlertOptions {
  /** The index's entry of a task. */
  entryOf: (id: string) => IndexEntry | undefined;
  /** Console alerts (`[AOF] APPROVAL NEEDED:`), to the daemon's stderr. */
  alert: (text: string) => void;
}

/** The daemon's approval alerts, fed by the index's changes. */
export interface ApprovalAlerts {
  /** A task changed status: one alert when it arrived at an approval gate. */
  observe(change: IndexChange): void;
}

/**
 * One `[AOF] APPROVAL NEEDED:` line per arrival at an approval gate (a task and its `since`), seen
 * through the index, so an arrival committed by any process (the daemon, MCP, the command line) is
 * alerted by the daemon that watches the tree.
 */
export function createApprovalAlerts(options: ApprovalAlertOptions): ApprovalAlerts {
  const alerted = new Set<string>();
  return {
    observe(change) {
      if (change.to !== 'blocked') return;
      const entry = options.entryOf(change.id);
      if (!entry?.awaiting) return;
      const key = `${entry.id}@${entry.awaiting.since}`;
      if (alerted.has(key)) return;
      alerted.add(key);
      options.alert(formatApprovalAlert(entry.id, entry.title, entry.awaiting.gate));
    },
  };
}

/** The console line of a task waiting for approval, control characters of the title and gate escaped. */
export function formatApprovalAlert(id: string, title: string, gate: string): string {
  return `[AOF] APPROVAL NEEDED: ${id} "${toTerminalText(title)}" at gate ${toTerminalText(gate)}`;
}
