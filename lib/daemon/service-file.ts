import { readFileSync } from 'node:fs';
import { platform } from 'node:os';
import { join } from 'node:path';
import { templatePath } from '../core/package-root.js';
import { toPaths } from '../store/disk/paths.js';

/**
 * Node flags of the daemon process. A heap cap makes V8 collect before growing: with the default
 * (a quarter of the RAM) the parse garbage of a 100,000-task scan leaves about 450 MB resident
 * instead of about 280 MB. 1 GiB still holds the index of about a million tasks.
 */
export const DAEMON_NODE_FLAGS = ['--max-old-space-size=1024'] as const;

/** The launchd label (`~/Library/LaunchAgents/<label>.plist`). */
export const SERVICE_LABEL = 'svc.daemon';
/** The systemd user unit (`~/.config/systemd/user/<unit>`). */
export const SYSTEMD_UNIT = 'svc.service';
/** The watchdog's launchd label and systemd unit (the second unit, when `aof.daemon.watchdog.enabled`). */
export const WATCHDOG_LABEL = 'svc.watchdog';
export const WATCHDOG_UNIT = 'svc-watchdog.service';

/** The units `svc daemon install` writes: the daemon, and the watchdog when enabled. */
export type UnitName = 'daemon' | 'watchdog';

/** Runs a supervisor command; tests pass their own. */
export type Runner = (command: string, args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

/** Where and how the service is installed. */
export interface ServiceOptions {
  /** The user's home: the unit goes under it (tests point it into a temp dir). */
  home: string;
  svcHome: string;
  node: string;
  bin: string;
  platform?: NodeJS.Platform;
  run?: Runner;
  /** Install the watchdog as a second unit (`aof.daemon.watchdog.enabled`); when false, `install` removes it. */
  watchdog?: boolean;
}

/** A rendered service file. */
export interface ServiceFile {
  kind: 'systemd' | 'launchd';
  /** The systemd unit name or the launchd label. */
  name: string;
  file: string;
  content: string;
}

/** Renders the unit (Linux) or plist (macOS) of the daemon, or of the watchdog, from `templates/`. */
export function renderServiceFile(options: ServiceOptions, unit: UnitName = 'daemon'): ServiceFile {
  const kind = (options.platform ?? platform()) === 'darwin' ? 'launchd' : 'systemd';
  const paths = toPaths(options.svcHome);
  const label = unit === 'daemon' ? SERVICE_LABEL : WATCHDOG_LABEL;
  const name = kind === 'launchd' ? label : unit === 'daemon' ? SYSTEMD_UNIT : WATCHDOG_UNIT;
  const values = {
    NODE: options.node,
    NODE_FLAG: DAEMON_NODE_FLAGS.join(' '),
    BIN: options.bin,
    SVC_HOME: paths.root,
    ENV_FILE: paths.envFile,
    LOG: unit === 'daemon' ? paths.daemonLog : paths.watchdogLog,
    LABEL: label,
    DAEMON_UNIT: SYSTEMD_UNIT,
  };
  const escape = kind === 'launchd' ? escapeXml : escapeSystemd;
  const base = unit === 'daemon' ? 'svc' : 'svc-watchdog';
  const template = readFileSync(templatePath(kind === 'launchd' ? `${base}.plist` : `${base}.service`), 'utf8');
  const content = template.replace(/\{\{(\w+)\}\}/g, (_, key: keyof typeof values) => escape(values[key] ?? ''));
  const file =
    kind === 'launchd'
      ? join(options.home, 'Library', 'LaunchAgents', `${label}.plist`)
      : join(options.home, '.config', 'systemd', 'user', name);
  return { kind, name, file, content };
}

// --- internal ---

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Inside systemd's double quotes: backslash and quote escaped, `%` doubled (specifiers). */
function escapeSystemd(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%');
}
