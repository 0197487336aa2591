import { parseYaml } from '../fs/frontmatter.js';
import { readIfExists, toOrgChartFile } from './files.js';
import { describeIssue, throwProblems, toProblems } from './problems.js';
import { checkNotify, type NotifyCheckOptions } from './notify.js';
import { checkReferences } from './references.js';
import { checkRuntimes } from './runtimes.js';
import { checkWorkspaces, type WorkspaceCheckOptions } from './workspaces.js';
import { DaemonSettingsSchema, OrgChartSchema, type DaemonSettings, type OrgChart } from './schema.js';

/** What `svc org validate` checks beyond the chart itself: the workspaces' repositories, the notify secrets. */
export type OrgCheckOptions = WorkspaceCheckOptions & NotifyCheckOptions;

const HINT = 'Fix the listed fields (templates/org-chart.yaml is a complete example), then run `svc org validate`.';

/** The org chart of a root (`org/org-chart.yaml`), validated with defaults applied; null when absent. */
export async function loadOrg(root: string, options: OrgCheckOptions = {}): Promise<OrgChart | null> {
  return loadOrgFile(toOrgChartFile(root), options);
}

/**
 * An org chart read from any file path; null when the file does not exist. `repos` also checks each workspace's
 * repository (see `validateOrg`).
 */
export async function loadOrgFile(file: string, options: OrgCheckOptions = {}): Promise<OrgChart | null> {
  const text = await readIfExists(file);
  if (text === null) return null;
  return validateOrg(parseYaml(text, file), file, options);
}

/**
 * Validates org chart data: every schema and cross-reference problem in one `validation_error`.
 * A workspace's repository that is missing now is a problem only with `repos` (`svc org validate`):
 * elsewhere the chart loads, and only that workspace's tasks wait (docs/workspaces.md). Likewise a subscription's
 * `secretEnv` is checked only against an `env` given (docs/notifications.md).
 */
export function validateOrg(data: unknown, source: string, options: OrgCheckOptions = {}): OrgChart {
  const result = OrgChartSchema.safeParse(data, { error: describeIssue });
  const problems = [
    ...(result.success ? [] : toProblems(result.error.issues)),
    ...checkReferences(data),
    ...checkRuntimes(data),
    ...checkWorkspaces(data, options),
    ...checkNotify(data, options),
  ];
  if (problems.length || !result.success) throwProblems(problems, { source, what: 'org chart', hint: HINT });
  return result.data;
}

/**
 * The daemon settings (`aof.daemon`) with defaults; every default when there is no org chart. Made once per chart
 * (a tick, a tool call, a run ask for them): callers read them, never change them.
 */
export function toDaemonSettings(org: OrgChart | null): DaemonSettings {
  if (!org) return (defaults ??= DaemonSettingsSchema.parse({}));
  let settings = settingsOf.get(org);
  if (!settings) settingsOf.set(org, (settings = structuredClone(org.aof.daemon)));
  return settings;
}

let defaults: DaemonSettings | undefined;
const settingsOf = new WeakMap<OrgChart, DaemonSettings>();
