import type { RuntimeProbe } from '../../adapters/runtimes/probe.js';
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
  /**
   * How it runs: its runtime (`claude-code`, `codex`, `gemini`), `command`, or null (the gateway, or not in the
   * chart).
   */
  runtime: string | null;
  /** The version its runtime's CLI prints; null when not a runtime agent or the CLI cannot run. */
  version: string | null;
  /** The runtime's CLI: where it was found, or why it cannot run, and what to do. */
  cli: RuntimeProbe | null;
}

/** `Paused: <agent> since <time> by <who> (<reason>)`, one line per paused agent (`svc daemon status`). */
export function formatPausedLines(pauses: readonly AgentPause[]): string[] {
  return pauses.map((p) =>
    toTerminalText(`Paused: ${p.agent} since ${p.since} by ${p.by}${p.reason ? ` (${p.reason})` : ''}`),
  );
}

/**
 * The table of `svc agent list`: agent, runtime and version, state, runs, last dispatch, failures in a row; a pause's
 * reason and a runtime CLI's problem below its agent.
 */
export function formatAgentTable(rows: readonly AgentRow[]): string[] {
  if (!rows.length) return ['(no agents: declare them in org/org-chart.yaml)'];
  const cells = rows.map((r) => [
    toTerminalText(r.id),
    toTerminalText(toRuntimeCell(r)),
    r.paused ? 'paused' : !r.known ? 'not in org chart' : r.active ? 'active' : 'inactive',
    String(r.runs.length),
    r.lastDispatch ? `${r.lastDispatch.at} ${r.lastDispatch.taskId}` : '-',
    String(r.failuresInARow),
  ]);
  const head = ['AGENT', 'RUNTIME', 'STATE', 'RUNS', 'LAST DISPATCH', 'FAILURES IN A ROW'];
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
    if (row.cli?.problem) {
      out.push(toTerminalText(`  ${row.runtime} CLI: ${row.cli.problem}`));
      if (row.cli.hint) out.push(toTerminalText(`  hint: ${row.cli.hint}`));
    }
  });
  return out;
}

// --- internal ---

function toRuntimeCell(row: AgentRow): string {
  if (!row.runtime) return '-';
  if (row.version) return `${row.runtime} ${row.version}`;
  if (!row.cli) return row.runtime;
  return `${row.runtime} (CLI ${row.cli.found ? 'failed' : 'not found'})`;
}
