import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** What the plugin reads from `plugins.entries.svc.config` (the gateway validated it against the manifest). */
export interface PluginSettings {
  /** The svc root: `dataDir`, else `SVC_HOME`, else `~/.svc`. */
  root: string;
  /** The daemon socket, `<root>/data/daemon.sock`. */
  socket: string;
  /** In a dry run the plugin takes no spawns: tools and hooks still work. */
  dryRun: boolean;
  /** Most spawns the plugin runs at once; it takes no more while this many run. */
  maxConcurrentDispatches: number;
  /** The longest wait between two attempts to reach a daemon that is down. */
  retryMaxMs: number;
  /** A run still going after this long is reported failed (`run_timeout`): its lease is gone by then. */
  runTimeoutMs: number;
}

/** Where the plugin runs: the environment and home directory (the entry passes the process's own). */
export interface PluginEnvironment {
  env: Record<string, string | undefined>;
  home?: string;
}

/** Builds the settings from the plugin config; the manifest's schema gave `dryRun` its default, `true`. */
export function toPluginSettings(
  config: Record<string, unknown> | undefined,
  where: PluginEnvironment,
): PluginSettings {
  const cfg = config ?? {};
  const root = toRoot(stringOf(cfg.dataDir), where);
  return {
    root,
    socket: join(root, 'data', 'daemon.sock'),
    dryRun: cfg.dryRun !== false,
    maxConcurrentDispatches: positiveOf(cfg.maxConcurrentDispatches) ?? 3,
    retryMaxMs: positiveOf(cfg.pollIntervalMs) ?? 30_000,
    runTimeoutMs: positiveOf(cfg.defaultLeaseTtlMs) ?? 1_800_000,
  };
}

// --- internal ---

function toRoot(dataDir: string | undefined, where: PluginEnvironment): string {
  const home = where.home ?? homedir();
  const chosen = dataDir ?? stringOf(where.env.SVC_HOME) ?? join(home, '.svc');
  const expanded = chosen === '~' ? home : chosen.startsWith('~/') ? join(home, chosen.slice(2)) : chosen;
  return isAbsolute(expanded) ? expanded : resolve(home, expanded);
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function positiveOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}
