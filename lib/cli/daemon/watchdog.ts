import { startWatchdog } from '../../daemon/watchdog/watchdog.js';
import { deliverCriticalReport } from '../../daemon/watchdog/alerting.js';
import { formatMs, type RestartRecord } from '../../daemon/watchdog/report.js';
import { restartDaemon } from '../../daemon/watchdog/restart.js';
import { DAEMON_NODE_FLAGS, type ServiceOptions } from '../../daemon/service-file.js';
import { loadOrg, toDaemonSettings } from '../../org/org-chart.js';
import { healthUrl, ROUTES } from '../../net/protocol/routes.js';
import { toPaths } from '../../store/disk/paths.js';
import type { Context } from '../frame/context.js';
import { toPort } from '../frame/port.js';

/** What `svc daemon watchdog` needs from the daemon commands: the service and the CLI entry. */
export interface WatchdogCommandOptions {
  /** `--port <n>`: check that port's `/health` (else `aof.daemon.healthPort`, else the socket). */
  port?: unknown;
  service: ServiceOptions;
  bin: string;
}

/**
 * `svc daemon watchdog`: runs the watchdog in this process with the settings of
 * `aof.daemon.watchdog` until SIGTERM/SIGINT, or until it gives up (exit 1 after the critical report).
 */
export async function runWatchdog(ctx: Context, options: WatchdogCommandOptions): Promise<void> {
  const paths = toPaths(ctx.root);
  const settings = toDaemonSettings(await loadOrg(ctx.root));
  const flagPort = options.port === undefined ? undefined : toPort(options.port);
  const port = flagPort ?? settings.healthPort;
  const { pollIntervalMs, restartPolicy } = settings.watchdog;
  const watchdog = startWatchdog({
    root: paths.root,
    pollIntervalMs,
    maxRestarts: restartPolicy.maxRestarts,
    windowMs: restartPolicy.windowMs,
    port,
    alert: (text) => ctx.io.stderr(text),
    restart: () =>
      restartDaemon({
        paths,
        service: options.service,
        // a port given on the command line is passed on, so a daemon started here opens it
        command: {
          node: process.execPath,
          args: [
            ...DAEMON_NODE_FLAGS,
            options.bin,
            'daemon',
            'run',
            ...(flagPort === undefined ? [] : ['--port', String(flagPort)]),
          ],
          env: { ...ctx.io.env, SVC_HOME: paths.root },
        },
      }),
  });
  const via = port === undefined ? `${paths.socket} (${ROUTES.healthz.path})` : healthUrl('127.0.0.1', port);
  ctx.print(
    `svc watchdog (pid ${process.pid}) checks ${via} every ${formatMs(pollIntervalMs)}; at most ` +
      `${restartPolicy.maxRestarts} restarts within ${formatMs(restartPolicy.windowMs)}; log: ${paths.watchdogLog}`,
  );
  const stop = () => void watchdog.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    const outcome = await watchdog.done;
    if (outcome.gaveUp) {
      ctx.exitCode = 1;
      await alertOthers(ctx, { report: outcome.report, history: watchdog.stats().history, restartPolicy });
    }
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}

// --- internal ---

/** Delivers the critical report to the subscriptions of `watchdog.critical` and says how it went. */
async function alertOthers(
  ctx: Context,
  input: { report: string[]; history: RestartRecord[]; restartPolicy: { maxRestarts: number; windowMs: number } },
): Promise<void> {
  const paths = toPaths(ctx.root);
  const result = await deliverCriticalReport({
    paths,
    report: input.report,
    history: input.history,
    maxRestarts: input.restartPolicy.maxRestarts,
    windowMs: input.restartPolicy.windowMs,
    env: ctx.io.env,
    log: (line) => ctx.io.stderr(`${line}\n`),
  });
  if (result.offered === 0) return;
  ctx.io.stderr(
    `[AOF] Watchdog: the critical report was delivered to ${result.delivered} of ${result.offered} notification(s)` +
      (result.left ? `; ${result.left} left in ${paths.data}/outbox/ for the daemon's next start.\n` : '.\n'),
  );
}
