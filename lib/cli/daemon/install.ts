import { homedir } from 'node:os';
import { SvcError } from '../../core/errors.js';
import { svcBinPath } from '../../core/package-root.js';
import { probeDaemon, terminate, waitForExit, waitForHealthy } from '../../daemon/control.js';
import { installService, uninstallService } from '../../daemon/service.js';
import type { ServiceOptions } from '../../daemon/service-file.js';
import { toPaths } from '../../store/disk/paths.js';
import type { Context } from '../frame/context.js';

// The daemon as a user service (systemd or launchd): `svc daemon install` and `uninstall`.

/** How long `start` waits for a healthy daemon, and `stop` for it to exit. */
export const START_TIMEOUT_MS = 20_000;
export const STOP_TIMEOUT_MS = 30_000;

/** `svc daemon install`: writes the user service (and the watchdog's), loads it and waits for a healthy daemon. */
export async function install(ctx: Context): Promise<void> {
  const paths = toPaths(ctx.root);
  const { loadOrg, toDaemonSettings } = await import('../../org/org-chart.js');
  const watchdog = toDaemonSettings(await loadOrg(ctx.root)).watchdog.enabled;
  const report = await installService({ ...serviceOptions(ctx), watchdog });
  ctx.print(`${report.changed ? 'Wrote' : 'Unchanged:'} ${report.file}`);
  if (report.watchdog)
    ctx.print(
      report.watchdog.installed
        ? `${report.watchdog.changed ? 'Wrote' : 'Unchanged:'} ` +
            `${report.watchdog.file} (the watchdog: aof.daemon.watchdog.enabled)`
        : `Removed ${report.watchdog.file} (aof.daemon.watchdog.enabled is false)`,
    );
  if (!report.supervised) {
    ctx.print(`Not loaded: ${report.why}.`);
    ctx.print('Start the daemon with `svc daemon start` (it runs detached; `svc daemon stop` stops it).');
    if (report.watchdog?.installed)
      ctx.print('Run the watchdog with `svc daemon watchdog` (it runs in the foreground).');
    return;
  }
  const up = await waitForHealthy(paths, START_TIMEOUT_MS);
  ctx.print(
    `Loaded ${report.kind === 'systemd' ? 'with systemctl --user' : 'with launchctl'}; ` +
      `svc daemon running (pid ${up.pid}).`,
  );
}

/** `svc daemon uninstall`: removes the user service and stops the daemon. */
export async function uninstall(ctx: Context): Promise<void> {
  const paths = toPaths(ctx.root);
  const options = serviceOptions(ctx);
  const report = await uninstallService(options);
  const pid = (await probeDaemon(paths)).pid;
  if (pid !== null && terminate(pid) && !(await waitForExit(pid, STOP_TIMEOUT_MS))) {
    throw new SvcError(
      'unavailable',
      `svc daemon (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s.`,
      `See ${paths.daemonLog}.`,
    );
  }
  if (pid !== null) ctx.print(`Stopped svc daemon (pid ${pid}).`);
  if (report.watchdog?.changed) ctx.print(`Removed ${report.watchdog.file}`);
  ctx.print(report.changed ? `Removed ${report.file}` : `Not installed (no ${report.file}).`);
}

/** The user service of this root, as the supervisor runs it. */
export function serviceOptions(ctx: Context): ServiceOptions {
  return { home: ctx.io.env.HOME || homedir(), svcHome: ctx.root, node: process.execPath, bin: svcBinPath() };
}
