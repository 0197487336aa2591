import { resolve } from 'node:path';
import type { CAC } from 'cac';
import { checkRuntimeAgents } from '../adapters/runtimes/probe.js';
import { SvcError } from '../core/errors.js';
import { readEnvFile } from '../fs/env-file.js';
import { loadOrgFile } from '../org/org-chart.js';
import { toPaths } from '../store/disk/paths.js';
import type { Context } from './frame/context.js';
import { formatRuntimeChecks } from './output/runtime-format.js';

/** Registers the `svc org` commands. */
export function registerOrg(cli: CAC, ctx: Context): void {
  cli
    .command(
      'validate [path]',
      "Validate an org chart (default: org/org-chart.yaml of the svc home) and check each runtime agent's CLI",
    )
    .option('--json', 'Print the result as a JSON object')
    .action(async (path: string | undefined, options: { json?: boolean }) => {
      const file = path ? resolve(path) : toPaths(ctx.root).orgChart;
      // a secretEnv must be set where the daemon reads it: its environment or data/daemon.env
      const env = { ...readEnvFile(toPaths(ctx.root).envFile), ...ctx.io.env };
      const org = await loadOrgFile(file, { repos: true, env });
      if (!org) {
        throw new SvcError(
          'not_found',
          `No org chart at ${file}.`,
          `Copy templates/org-chart.yaml to ${toPaths(ctx.root).orgChart} and edit it, or pass the path of one.`,
        );
      }
      const counts = { agents: org.agents.length, teams: org.teams.length, roles: Object.keys(org.roles).length };
      const runtimes = await checkRuntimeAgents(org.agents, { env: ctx.io.env, cwd: ctx.root });
      // the chart is valid, but an agent whose CLI cannot run fails every dispatch
      if (runtimes.some((check) => check.problem)) ctx.exitCode = 1;
      if (options.json) return ctx.json({ valid: true, file, ...counts, runtimes });
      ctx.print('valid');
      for (const [name, count] of Object.entries(counts)) ctx.print(`${name}: ${count}`);
      formatRuntimeChecks(runtimes).forEach((line) => ctx.print(line));
    });
}
