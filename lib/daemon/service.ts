import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hasCode } from '../core/errors.js';
import { renderServiceFile, type ServiceFile, type ServiceOptions } from './service-file.js';
import { runner, supervise, supervisorProblem } from './supervisor.js';

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

/**
 * Writes the service file (only when it differs), then loads and starts it when the supervisor is
 * reachable; the same for the watchdog unit when `watchdog` is set, which is removed when it is not.
 */
export async function installService(options: ServiceOptions): Promise<ServiceReport> {
  const service = renderServiceFile(options);
  const changed = await writeIfChanged(service);
  const why = await supervisorProblem(service.kind, options);
  if (!why) await supervise(service, options, changed ? 'reload' : 'start');
  const watchdog = options.watchdog
    ? await installWatchdog(options, why)
    : await removeUnit(renderServiceFile(options, 'watchdog'), options, why);
  return {
    file: service.file,
    kind: service.kind,
    changed,
    supervised: !why,
    ...(why ? { why } : {}),
    ...(watchdog ? { watchdog } : {}),
  };
}

/** Unloads the service and the watchdog unit (when the supervisor is reachable) and removes their files. */
export async function uninstallService(options: ServiceOptions): Promise<ServiceReport> {
  const service = renderServiceFile(options);
  const why = await supervisorProblem(service.kind, options);
  const watchdog = await removeUnit(renderServiceFile(options, 'watchdog'), options, why);
  if (!why) await supervise(service, options, 'remove');
  const changed = await unlinkIfPresent(service.file);
  if (!why && service.kind === 'systemd') await runner(options)('systemctl', ['--user', 'daemon-reload']);
  return {
    file: service.file,
    kind: service.kind,
    changed,
    supervised: !why,
    ...(why ? { why } : {}),
    ...(watchdog ? { watchdog } : {}),
  };
}

/** Starts or stops the installed service through the supervisor; false when it is not installed or reachable. */
export async function controlService(options: ServiceOptions, action: 'start' | 'stop'): Promise<boolean> {
  const service = renderServiceFile(options);
  if ((await readFile(service.file, 'utf8').catch(() => null)) === null) return false;
  if (await supervisorProblem(service.kind, options)) return false;
  await supervise(service, options, action);
  return true;
}

// --- internal ---

async function installWatchdog(options: ServiceOptions, why: string | null): Promise<ServiceReport['watchdog']> {
  const unit = renderServiceFile(options, 'watchdog');
  const changed = await writeIfChanged(unit);
  if (!why) await supervise(unit, options, changed ? 'reload' : 'start');
  return { file: unit.file, changed, installed: true };
}

/** Unloads and removes a unit when its file exists; undefined when there was none. */
async function removeUnit(
  unit: ServiceFile,
  options: ServiceOptions,
  why: string | null,
): Promise<ServiceReport['watchdog']> {
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
  return unlink(file).then(
    () => true,
    (err: unknown) => (hasCode(err, 'ENOENT') ? false : Promise.reject(err)),
  );
}
