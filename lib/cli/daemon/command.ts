import type { CAC } from 'cac';
import { SvcError } from '../../core/errors.js';
import { svcBinPath } from '../../core/package-root.js';
import {
  probeDaemon,
  spawnDetached,
  terminate,
  waitForExit,
  waitForHealthy,
  type DaemonProbe,
} from '../../daemon/control.js';
import { readPid } from '../../daemon/instance/pid.js';
import { HEALTH_PORT_ROUTES, ROUTES, toRouteLabel } from '../../net/protocol/routes.js';
import type { ConfigReport } from '../../net/protocol/status.js';
import { controlService } from '../../daemon/service.js';
import { DAEMON_NODE_FLAGS } from '../../daemon/service-file.js';
import { toPaths, type Paths } from '../../store/disk/paths.js';
import type { Context } from '../frame/context.js';
import { formatConfig, printDaemonStatus } from './status.js';
import { toPort } from '../frame/port.js';
import { install, serviceOptions, START_TIMEOUT_MS, STOP_TIMEOUT_MS, uninstall } from './install.js';

/** The health port's route, as the options' help names it. */
const HEALTH = toRouteLabel(HEALTH_PORT_ROUTES.health);

/** Registers the `svc daemon` commands. */
export function registerDaemon(cli: CAC, ctx: Context): void {
  cli
    .command('run', 'Run the daemon in the foreground (what the service unit runs)')
    .option('--port <n>', `Also serve ${HEALTH} on 127.0.0.1:<n> (else aof.daemon.healthPort)`)
    .action((opts: { port?: unknown }) => runDaemon(ctx, opts.port === undefined ? undefined : toPort(opts.port)));
  cli
    .command('start', 'Start the daemon (through the supervisor when installed, else detached)')
    .action(() => startDaemonProcess(ctx));
  cli
    .command(
      'status',
      'Show whether the daemon runs, its version, pid, uptime, mode, plugins and whether its org chart loaded',
    )
    .option('--json', `Print the ${ROUTES.status.path} body as JSON`)
    .option('--port <n>', `Also query ${HEALTH} on 127.0.0.1:<n> (the health port)`)
    .action((opts: { json?: boolean; port?: unknown }) =>
      printDaemonStatus(ctx, {
        json: opts.json === true,
        port: opts.port === undefined ? undefined : toPort(opts.port),
      }),
    );
  cli
    .command('watchdog', "Watch the daemon's health and restart it when it fails (aof.daemon.watchdog)")
    .option('--port <n>', `Check ${HEALTH} on 127.0.0.1:<n> instead of the socket`)
    .action(async (opts: { port?: unknown }) =>
      (await import('./watchdog.js')).runWatchdog(ctx, {
        port: opts.port,
        service: serviceOptions(ctx),
        bin: svcBinPath(),
      }),
    );
  cli
    .command('stop', 'Stop the daemon gracefully (SIGTERM, through the supervisor when installed)')
    .option('--force', 'Bypass the supervisor: SIGTERM to the pid')
    .action((opts: { force?: boolean }) => stopDaemonProcess(ctx, { force: opts.force === true }));
  cli.command('install', 'Write the user service (systemd or launchd), load and start it').action(() => install(ctx));
  cli.command('uninstall', 'Stop the daemon and remove the user service').action(() => uninstall(ctx));
}

/** `svc daemon run`: the daemon serves the agent tools and the command line's own calls. */
async function runDaemon(ctx: Context, healthPort: number | undefined): Promise<void> {
  const [{ startDaemon }, { TOOLS }, { APPROVAL_TOOLS }, { OPERATOR_TOOLS }, { startWebBoard }] = await Promise.all([
    import('../../daemon/daemon.js'),
    import('../../tools/index.js'),
    import('../../tools/approval.js'),
    import('../../tools/operator.js'),
    import('../../web/server.js'),
  ]);
  const fault = toFault(ctx.io.env.SVC_TEST_CRASH_AT);
  const daemon = await startDaemon({
    root: ctx.root,
    tools: [...TOOLS, ...APPROVAL_TOOLS, ...OPERATOR_TOOLS],
    web: startWebBoard,
    stderr: (text) => ctx.io.stderr(text),
    handleSignals: { exit: (code) => process.exit(code) },
    env: ctx.io.env,
    ...(healthPort === undefined ? {} : { healthPort }),
    ...(fault ? { fault } : {}),
  });
  ctx.print(`svc daemon running (pid ${daemon.pid}) on ${daemon.paths.socket}; log: ${daemon.paths.daemonLog}`);
  await daemon.closed;
  const lost = daemon.lost();
  if (lost)
    throw new SvcError(
      'unavailable',
      `svc daemon (pid ${daemon.pid}) stopped: ${lost}.`,
      'Start it again with `svc daemon start` (it re-creates data/).',
    );
}

/**
 * `svc daemon start`: through the supervisor when installed, else detached. Returns false when a
 * healthy daemon already ran; throws (exit 1) whenever it does not leave a healthy daemon behind.
 */
export async function startDaemonProcess(ctx: Context): Promise<boolean> {
  const paths = toPaths(ctx.root);
  const probe = await probeDaemon(paths);
  if (probe.state === 'running' || probe.state === 'busy') {
    ctx.print(
      `svc daemon is already running (pid ` +
        `${probe.pid ?? '?'})${probe.state === 'busy' ? `, and busy: ${probe.reason}` : ''}.`,
    );
    return false;
  }
  if (probe.state === 'unhealthy') return alreadyThere(ctx, paths, probe);
  if (probe.state === 'stopping' && probe.pid !== null) await waitForExit(probe.pid, STOP_TIMEOUT_MS);
  let exited = () => null as string | null;
  if (!(await controlService(serviceOptions(ctx), 'start'))) {
    const child = spawnDetached({
      node: process.execPath,
      args: [...DAEMON_NODE_FLAGS, svcBinPath(), 'daemon', 'run'],
      env: { ...ctx.io.env, SVC_HOME: paths.root },
      logFile: paths.daemonLog,
    });
    exited = child.exited;
  }
  const up = await waitForHealthy(paths, START_TIMEOUT_MS, exited);
  ctx.print(`svc daemon started (pid ${up.pid})`);
  ctx.print(`Socket: ${paths.socket}`);
  ctx.print(`Log: ${paths.daemonLog}`);
  const config = await waitForConfig(paths);
  if (config && config.orgChart === 'invalid') {
    formatConfig(config).forEach((line) => ctx.print(line));
    ctx.io.stderr(
      'hint: fix org/org-chart.yaml (svc org validate lists every ' +
        'problem); the daemon reloads it when the file changes.\n',
    );
  }
  return true;
}

// --- internal ---

/**
 * The fault-injection hook of svc's crash tests: `SVC_TEST_CRASH_AT=<step>[@<cause>][#<n>]` makes
 * the daemon SIGKILL itself the first (the n-th) time a dispatch reaches that step
 * (`dispatch.marked`, `commit.written@dispatch`, `commit.unlinked@dispatch`,
 * `commit.committed@dispatch`, `dispatch.leased`, `dispatch.handed`), or a batch of writes
 * reaches it (`batch.temp-written`, `batch.temps-written`, `batch.renamed`, `batch.synced`, see
 * `writeBatched`). Never set otherwise.
 */
function toFault(spec: string | undefined): ((point: string, detail?: string) => void) | undefined {
  if (!spec) return undefined;
  const [where, nth] = spec.split('#');
  const [step, cause] = where!.split('@');
  let left = Number(nth ?? 1);
  return (point, detail) => {
    if (point !== step || (cause !== undefined && detail !== cause) || --left > 0) return;
    process.stderr.write(`svc daemon: SVC_TEST_CRASH_AT=${spec} reached: SIGKILL\n`);
    process.kill(process.pid, 'SIGKILL');
  };
}

/**
 * A daemon of this root runs but is not healthy: one still starting (no pid file yet) gets the
 * start timeout to become healthy; otherwise the start fails (exit 1), since it leaves no healthy
 * daemon, and starts none beside it.
 */
async function alreadyThere(ctx: Context, paths: Paths, probe: DaemonProbe): Promise<false> {
  const starting = readPid(paths) === null; // the pid file is written once it is healthy
  const up = starting ? await waitForHealthy(paths, START_TIMEOUT_MS).catch(() => null) : null;
  if (up) {
    ctx.print(`svc daemon is already running (pid ${up.pid}).`);
    return false;
  }
  const now = starting ? await probeDaemon(paths) : probe;
  const pid = now.pid ?? probe.pid;
  throw new SvcError(
    'unavailable',
    `An svc daemon of ${paths.root} runs (pid ${pid}) but is not healthy: ` +
      `${now.reason ?? probe.reason ?? now.state}; no other daemon was started.`,
    `Stop it with \`svc daemon stop\` (or kill ${pid}), then run \`svc daemon start\` again; see ${paths.daemonLog}.`,
  );
}

/**
 * A note when the pid file names a process that is not this root's daemon (a stale file, a recycled pid): it is left
 * alone.
 */
function strayPidFile(paths: Paths): string {
  const pid = readPid(paths);
  return pid === null
    ? ''
    : ` (${paths.pidFile} names pid ${pid}, which is not an svc daemon of ` +
        `this root: it was not signalled; the next start removes the file)`;
}

/**
 * `svc daemon stop [--force]`: graceful SIGTERM (through the supervisor unless forced), waits until
 * gone. Only a pid proven to be this root's daemon is signalled (see `probeDaemon`).
 */
export async function stopDaemonProcess(ctx: Context, { force }: { force: boolean }): Promise<void> {
  const paths = toPaths(ctx.root);
  const probe = await probeDaemon(paths);
  const pid = probe.pid;
  if (pid === null) return void ctx.print(`svc daemon is not running.${strayPidFile(paths)}`);
  const how =
    !force && (await controlService(serviceOptions(ctx), 'stop'))
      ? 'through the supervisor'
      : terminate(pid)
        ? 'SIGTERM'
        : 'already gone';
  if (!(await waitForExit(pid, STOP_TIMEOUT_MS))) {
    throw new SvcError(
      'unavailable',
      `svc daemon (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s after ${how}.`,
      `See ${paths.daemonLog}; as a last resort: kill -9 ${pid}.`,
    );
  }
  ctx.print(`svc daemon stopped (pid ${pid}, ${how}).`);
}

/**
 * The org chart state of a daemon that just started (its scheduler reports it moments after it is healthy); null if it
 * does not.
 */
async function waitForConfig(paths: ReturnType<typeof toPaths>): Promise<ConfigReport | null> {
  const deadline = Date.now() + 2000;
  for (;;) {
    const config = (await probeDaemon(paths)).status?.config;
    if (config || Date.now() > deadline) return config ?? null;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
