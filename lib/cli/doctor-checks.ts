import { relative } from 'node:path';
import { checkRuntimeAgents, type RuntimeCheck } from '../adapters/runtimes/probe.js';
import { toProblemLines } from '../daemon/scheduling/org-state.js';
import { loadOrg } from '../org/org-chart.js';
import { listWorkflows, loadWorkflow } from '../org/workflow.js';
import { countSpooled, mergeEventSpool } from '../store/events/spool.js';
import { describeError } from '../core/errors.js';

/** A configuration file that does not load, with its problems (`path: problem` lines). */
export interface ConfigProblem {
  file: string;
  problems: string[];
}

/** Loads the org chart and every workflow of `root`; returns the files that do not load, with their problems. */
export async function checkConfig(root: string): Promise<ConfigProblem[]> {
  const out: ConfigProblem[] = [];
  const org = await loadOrg(root, { repos: true }).catch((err: unknown) => {
    out.push({ file: 'org/org-chart.yaml', problems: toProblemLines(err) });
    return null;
  });
  for (const name of await listWorkflows(root)) {
    await loadWorkflow(root, name, { org }).catch((err: unknown) =>
      out.push({ file: relative(root, `${root}/org/workflows/${name}.yaml`), problems: toProblemLines(err) }),
    );
  }
  return out;
}

/** The CLI of each runtime agent of a valid org chart: found and its version, or the problem (none without a chart). */
export async function checkAgentClis(root: string, env: Record<string, string | undefined>): Promise<RuntimeCheck[]> {
  const org = await loadOrg(root).catch(() => null);
  return org ? checkRuntimeAgents(org.agents, { env, cwd: root }) : [];
}

/** Event lines spooled while `data/events/` could not be appended (docs/events.md), and what `--fix` did with them. */
export interface SpoolCheck {
  /** Spool files found (claims of a merge in progress included). */
  files: number;
  /** Lines appended by `--fix`. */
  appended?: number;
  /** Why `--fix` could not append them. */
  error?: string;
  /** Spooled events are still not in the event log. */
  problem: boolean;
}

/** Counts the spool files of `root`; with `fix`, appends them to the event log first. */
export async function checkSpool(root: string, { fix }: { fix: boolean }): Promise<SpoolCheck> {
  const files = await countSpooled(root);
  if (!fix || files === 0) return { files, problem: files > 0 };
  try {
    const appended = await mergeEventSpool(root);
    return { files, appended, problem: (await countSpooled(root)) > 0 };
  } catch (err) {
    return { files, error: describeError(err), problem: true };
  }
}
