import { relative } from 'node:path';
import { createFileCache } from '../../engine/file-cache.js';
import { loadOrg, toDaemonSettings } from '../../org/org-chart.js';
import type { DaemonSettings, OrgChart } from '../../org/schema.js';
import { findUnavailableWorkspaces } from '../../org/workspaces.js';
import type { ConfigReport } from '../../net/protocol/status.js';
import { describeError } from '../../core/errors.js';

/** How many problems `svc daemon status` and `/status` show (the count says how many there are). */
const SHOWN_PROBLEMS = 5;

/** The org chart of a running daemon: re-read when its file changes; an invalid file keeps the last valid chart. */
export interface OrgState {
  /** The chart in use (null: none loaded, or no file). */
  get(): Promise<OrgChart | null>;
  /** The chart loaded last, without a look at the file (null before the first load or while none is valid). */
  current(): OrgChart | null;
  /** `aof.daemon` settings of the chart in use. */
  settings(): DaemonSettings;
  /** Why nothing can be dispatched: the chart is invalid and no valid one was ever loaded; else null. */
  problem(): string | null;
  /** The state for `/status` (re-checks the file first). */
  report(): Promise<ConfigReport>;
}

/** Where the org chart is and who is told of it. */
export interface OrgStateOptions {
  /** The tree's root. */
  root: string;
  /** The org chart file. */
  file: string;
  now: () => Date;
  /** Gets one line each time the state changes. */
  log: (line: string) => void;
}

/** Creates the org chart state of `root`; `log` gets one line each time the state changes. */
export function createOrgState({ root, file, now, log }: OrgStateOptions): OrgState {
  const name = relative(root, file) || file;
  let chart: OrgChart | null = null;
  let report: ConfigReport = {
    file: name,
    orgChart: 'absent',
    agents: 0,
    problems: [],
    problemCount: 0,
    since: now().toISOString(),
    unavailableWorkspaces: [],
  };
  const cache = createFileCache<OrgChart | null>(file, async () => {
    try {
      const loaded = await loadOrg(root);
      if (report.orgChart === 'invalid') log(`org chart ${name} is valid again: ${loaded?.agents.length ?? 0} agents`);
      chart = loaded;
      report = {
        file: name,
        orgChart: loaded ? 'ok' : 'absent',
        agents: loaded?.agents.length ?? 0,
        problems: [],
        problemCount: 0,
        since: now().toISOString(),
        unavailableWorkspaces: [],
      };
    } catch (err) {
      const problems = toProblemLines(err);
      report = {
        file: name,
        orgChart: 'invalid',
        agents: chart?.agents.length ?? 0,
        problems: problems.slice(0, SHOWN_PROBLEMS),
        problemCount: problems.length,
        using: chart ? 'previous' : 'none',
        since: now().toISOString(),
        unavailableWorkspaces: [],
      };
      const first = problems.slice(0, SHOWN_PROBLEMS).join('; ');
      if (chart)
        log(
          `warning: org chart ${name} is invalid, still using the ` +
            `chart loaded before (fix it; svc org validate): ${first}`,
        );
      else
        log(
          `error: org chart ${name} is invalid and no valid chart is loaded: ready tasks ` +
            `are held (reason org-chart) until it is fixed (svc org validate): ${first}`,
        );
    }
    return chart;
  });
  return {
    get: () => cache.get(),
    current: () => chart,
    settings: () => toDaemonSettings(chart),
    problem() {
      if (report.orgChart !== 'invalid' || chart) return null;
      const count = report.problemCount === 1 ? '1 problem' : `${report.problemCount} problems`;
      return (
        `org chart ${name} is invalid (${count}: ${report.problems.slice(0, 2).join('; ')}); ` +
        `fix it, then check with svc org validate`
      );
    },
    async report() {
      await cache.get();
      return { ...report, problems: [...report.problems], unavailableWorkspaces: findUnavailableWorkspaces(chart) };
    },
  };
}

/** The problem lines of a load error: the `path: problem` lines of a validation error, else its message. */
export function toProblemLines(err: unknown): string[] {
  const message = describeError(err);
  const [head = '', ...rest] = message.split('\n');
  const lines = rest.map((line) => line.trim()).filter(Boolean);
  return lines.length ? lines : [head];
}
