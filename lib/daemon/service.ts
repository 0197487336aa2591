import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { platform, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { hasCode } from '../core/errors.js';
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

/** The outcome of install or uninstall. */
export interface ServiceReport {
  file: string;
  kind: ServiceFile['kind'];
  /** The file was written (install) or removed (uninstall); false when already so. */
  changed: boolean;
  /** The user supervisor was reachable and did the loading / unloading. */
  supervised: boolean;
  /** Why the supervisor was not used, when it was not. */
  why?: string;
  /** The watchdog unit: written (enabled), removed (disabled, or uninstall), or untouched (`changed` false). */
  watchdog?: { file: string; changed: boolean; installed: boolean };
}

/** Renders the unit (Linux) or plist (macOS) of the daemon, or of the watchdog, from `templates/`. */
export function renderServiceFile(options: ServiceOptions, unit: UnitName = 'daemon'): ServiceFile {
  const kind = (options.platform ?? platform()) === 'darwin' ? 'launchd' : 'systemd';
  const paths = toPaths(options.svcHome);
  const label = unit === 'daemon' ? SERVICE_LABEL : WATCHDOG_LABEL;
  const name = kind === 'launchd' ? label : unit === 'daemon' ? SYSTEMD_UNIT : WATCHDOG_UNIT;
  const values = { NODE: options.node, NODE_FLAG: DAEMON_NODE_FLAGS.join(' '), BIN: options.bin, SVC_HOME: paths.root, ENV_FILE: paths.envFile, LOG: unit === 'daemon' ? paths.daemonLog : paths.watchdogLog, LABEL: label, DAEMON_UNIT: SYSTEMD_UNIT };
  const escape = kind === 'launchd' ? escapeXml : escapeSystemd;
  const base = unit === 'daemon' ? 'svc' : 'svc-watchdog';
  const template = readFileSync(templatePath(kind === 'launchd' ? `${base}.plist` : `${base}.service`), 'utf8');
  const content = template.replace(/\{\{(\w+)\}\}/g, (_, key: keyof typeof values) => escape(values[key] ?? ''));
  const file = kind === 'launchd' ? join(options.home, 'Library', 'LaunchAgents', `${label}.plist`) : join(options.home, '.config', 'systemd', 'user', name);
  return { kind, name, file, content };
}

/**
 * Writes the service file (only when it differs), then loads and starts it when the supervisor is
 * reachable; the same for the watchdog unit when `watchdog` is set, which is removed when it is not.
 */
export async function installService(options: ServiceOptions): Promise<ServiceReport> {
  const service = renderServiceFile(options);
  const changed = await writeIfChanged(service);
  const why = await supervisorProblem(service.kind, options);
  if (!why) await supervise(service, options, changed ? 'reload' : 'start');
  const watchdog = options.watchdog ? await installWatchdog(options, why) : await removeUnit(renderServiceFile(options, 'watchdog'), options, why);
  return { file: service.file, kind: service.kind, changed, supervised: !why, ...(why ? { why } : {}), ...(watchdog ? { watchdog } : {}) };
}

/** Unloads the service and the watchdog unit (when the supervisor is reachable) and removes their files. */
export async function uninstallService(options: ServiceOptions): Promise<ServiceReport> {
  const service = renderServiceFile(options);
  const why = await supervisorProblem(service.kind, options);
  const watchdog = await removeUnit(renderServiceFile(options, 'watchdog'), options, why);
  if (!why) await supervise(service, options, 'remove');
  const changed = await unlinkIfPresent(service.file);
  if (!why && service.kind === 'systemd') await runner(options)('systemctl', ['--user', 'daemon-reload']);
  return { file: service.file, kind: service.kind, changed, supervised: !why, ...(why ? { why } : {}), ...(watchdog ? { watchdog } : {}) };
}

/** Starts or stops the installed service through the supervisor; false when it is not installed or reachable. */
export async function controlService(options: ServiceOptions, action: 'start' | 'stop'): Promise<boolean> {
  const service = renderServiceFile(options);
  if ((await readFile(service.file, 'utf8').catch(() => null)) === null) return false;
  if (await supervisorProblem(service.kind, options)) return false;
  await supervise(service, options, action);
  return true;
}

/**
 * Why the user supervisor cannot be used, or null when it can. It is used only for the real home
 * of this user (a unit written elsewhere is invisible to it) and when it answers.
 */
export async function supervisorProblem(kind: ServiceFile['kind'], options: ServiceOptions): Promise<string | null> {
  if (options.home !== userInfo().homedir) return `${options.home} is not the home of this user, so the supervisor would not see the file`;
  const probe = kind === 'launchd' ? ['launchctl', ['print', `gui/${userInfo().uid}`]] as const : ['systemctl', ['--user', 'show-environment']] as const;
  const result = await runner(options)(probe[0], [...probe[1]]);
  if (result.code === 0) return null;
  const detail = (result.stderr || result.stdout).trim().split('\n')[0] || `exit code ${result.code}`;
  return `${kind === 'launchd' ? 'launchctl' : 'systemctl --user'} is not available here (${detail})`;
}

// --- internal ---

async function supervise(service: ServiceFile, options: ServiceOptions, action: 'reload' | 'start' | 'stop' | 'remove'): Promise<void> {
  const run = runner(options);
  const steps = service.kind === 'launchd' ? launchdSteps(service, action) : systemdSteps(service.name, action);
  for (const [command, args, mayFail] of steps) {
    const result = await run(command, args);
    if (result.code !== 0 && !mayFail) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.code}): ${(result.stderr || result.stdout).trim()}`);
  }
}

type Step = [command: string, args: string[], mayFail: boolean];

function systemdSteps(unit: string, action: 'reload' | 'start' | 'stop' | 'remove'): Step[] {
  const ctl = (...args: string[]): Step => ['systemctl', ['--user', ...args], false];
  if (action === 'reload') return [ctl('daemon-reload'), ctl('enable', unit), ctl('restart', unit)];
  if (action === 'start') return [ctl('enable', unit), ctl('start', unit)];
  if (action === 'stop') return [ctl('stop', unit)];
  return [ctl('disable', '--now', unit)];
}

function launchdSteps(service: ServiceFile, action: 'reload' | 'start' | 'stop' | 'remove'): Step[] {
  const target = `gui/${userInfo().uid}`;
  const bootout: Step = ['launchctl', ['bootout', `${target}/${service.name}`], true];
  const bootstrap: Step = ['launchctl', ['bootstrap', target, service.file], true];
  const kickstart: Step = ['launchctl', ['kickstart', `${target}/${service.name}`], false];
  if (action === 'reload') return [bootout, bootstrap, kickstart];
  if (action === 'start') return [bootstrap, kickstart];
  if (action === 'stop') return [['launchctl', ['kill', 'SIGTERM', `${target}/${service.name}`], false]];
  return [bootout];
}

async function installWatchdog(options: ServiceOptions, why: string | null): Promise<ServiceReport['watchdog']> {
  const unit = renderServiceFile(options, 'watchdog');
  const changed = await writeIfChanged(unit);
  if (!why) await supervise(unit, options, changed ? 'reload' : 'start');
  return { file: unit.file, changed, installed: true };
}

/** Unloads and removes a unit when its file exists; undefined when there was none. */
async function removeUnit(unit: ServiceFile, options: ServiceOptions, why: string | null): Promise<ServiceReport['watchdog']> {
  if ((await readFile(unit.file, 'utf8').catch(() => null)) === null) return undefined;
  if (!why) await supervise(unit, options, 'remove');
  return { file: unit.file, changed: await unlinkIfPresent(unit.file), installed: false };
}

async function writeIfChanged(service: ServiceFile): Promise<boolean> {
  const before = await readFile(service.file, 'utf8').catch(() => null);
  if (before === service.content) return false;
  await mkdir(dirname(service.file), { recursive: true });
  await writeFile(service.file, service.content, { mode: 0o644 });
  return true;
}

function unlinkIfPresent(file: string): Promise<boolean> {
  return unlink(file).then(() => true, (err: unknown) => (hasCode(err, 'ENOENT') ? false : Promise.reject(err)));
}

function runner(options: ServiceOptions): Runner {
  return options.run ?? runCommand;
}

/** Runs a command; a missing binary is exit code 127, never a throw. */
function runCommand(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 15_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 127) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr || (err && !stdout ? err.message : '')) });
    });
  });
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Inside systemd's double quotes: backslash and quote escaped, `%` doubled (specifiers). */
function escapeSystemd(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%');
}
