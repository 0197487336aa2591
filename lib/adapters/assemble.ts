import { svcBinPath } from '../core/package-root.js';
import type { DaemonSettings, OrgChart } from '../org/schema.js';
import type { Paths } from '../store/disk/paths.js';
import { createCommandAdapter, type CommandAdapter } from './command.js';
import type { RuntimeHooks } from './runtime-hooks.js';
import type { Run } from './runs.js';
import { createStandaloneAdapter, type StandaloneAdapter } from './standalone.js';

/** What the adapters of a root are built from, in the daemon and in `svc scheduler run --active`. */
export interface AdapterSetOptions {
  paths: Paths;
  loadOrg: () => Promise<OrgChart | null>;
  /** The environment every agent process starts from. */
  env: Record<string, string | undefined>;
  /** `aof.daemon` as it is now: read at each spawn, so a changed org chart applies to the next run. */
  settings: () => Pick<DaemonSettings, 'gatewayUrl' | 'runLogMaxBytes' | 'agentStopGraceMs'>;
  spawnTimeoutMs: number;
  /** The gateway token; never logged or written to tasks. */
  token: () => string | undefined;
  /**
   * Set by the daemon: its agents outlive it (not waited for, their pids recorded under
   * `data/runs/` so the next daemon can end them), and each run confirmed gone is reported.
   */
  daemon?: { onGone: (run: Run) => void };
  /** svc's own tools (always allowed to agent runtimes). */
  svcTools: readonly string[];
  /** Pricing, budgets and recording of the agent CLIs' runs (docs/agent-runtimes.md). */
  runtimeHooks?: RuntimeHooks;
}

/** The local adapters every scheduler has: `command` agents as processes, the standalone gateway client. */
export interface AdapterSet {
  command: CommandAdapter;
  standalone: StandaloneAdapter;
}

/** Builds the adapters of a root; the one place they are assembled (the plugin's adapter is the daemon's own). */
export function createAdapterSet(options: AdapterSetOptions): AdapterSet {
  const { paths, settings, daemon } = options;
  const command = createCommandAdapter({
    root: paths.root,
    socketPath: paths.socket,
    loadOrg: options.loadOrg,
    baseEnv: options.env,
    logFile: `${paths.logs}/agents.log`,
    extraEnv: { SVC_BIN: svcBinPath(), SVC_NODE: process.execPath },
    runLogMaxBytes: () => settings().runLogMaxBytes,
    svcTools: options.svcTools,
    ...(options.runtimeHooks ? { runtimeHooks: options.runtimeHooks } : {}),
    ...(daemon
      ? { runsDir: paths.runs, stopGraceMs: () => settings().agentStopGraceMs, unref: true, onGone: daemon.onGone }
      : {}),
  });
  const standalone = createStandaloneAdapter({
    gatewayUrl: () => settings().gatewayUrl,
    token: options.token,
    timeoutMs: options.spawnTimeoutMs,
  });
  return { command, standalone };
}
