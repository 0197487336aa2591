import { toTerminalText } from '../../core/text.js';
import type { AgentPause } from '../../store/records/agent-pauses.js';
import type { AgentActivity } from '../../store/events/agent-activity.js';

/** One agent of `svc agent list`. */
export interface AgentRow extends AgentActivity {
  id: string;
  /** In the org chart (a paused agent removed from the chart is still listed, with false). */
  known: boolean;
  active: boolean;
  paused: boolean;
  pause: AgentPause | null;
  /** Ids of the in-progress tasks it holds. */
  runs: string[];
}

/** `Paused: <agent> since <time> by <who> (<reason>)`, one line per paused agent (`svc daemon status`). */
export function formatPausedLines(pauses: readonly AgentPause[]): string[] {
  return pauses.map((p) =>
    toTerminalText(`Paused: ${p.agent} since ${p.since} by ${p.by}${p.reason ? ` (${p.reason})` : ''}`),
  );
}

/**
 * The table of `svc agent list`: agent, state, runs, last dispatch, failures in a row; a pause's reason below its
 * agent.
 */
export function formatAgentTable(rows: readonly AgentRow[]): string[] {
  if (!rows.length) return ['(no agents: declare them in org/org-chart.yaml)'];
  const cells = rows.map((r) => [
    toTerminalText(r.id),
    r.paused ? 'paused' : !r.known ? 'not in org chart' : r.active ? 'active' : 'inactive',
    String(r.runs.length),
    r.lastDispatch ? `${r.lastDispatch.at} ${r.lastDispatch.taskId}` : '-',
    String(r.failuresInARow),
  ]);
  const head = ['AGENT', 'STATE', 'RUNS', 'LAST DISPATCH', 'FAILURES IN A ROW'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((cell, i) => (i < c.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  ');
  const out = [line(head)];
  rows.forEach((row, i) => {
    out.push(line(cells[i]!));
    if (row.pause)
      out.push(
        toTerminalText(
          `  paused since ${row.pause.since} by ${row.pause.by}${row.pause.reason ? `: ${row.pause.reason}` : ''}`,
        ),
      );
  });
  return out;
}
