import { systemClock, type Clock } from '../../core/time/clock.js';
import { healthUrl } from '../../net/protocol/routes.js';
import { toPaths, type Paths } from '../../store/disk/paths.js';
import { createLog, type DaemonLog } from '../instance/log.js';
import { checkDaemon, type HealthCheck } from './check.js';
import { formatCriticalReport, formatMs, type RestartRecord } from './report.js';
import type { RestartResult } from './restart.js';
import { describeError } from '../../core/errors.js';

/** Options of `startWatchdog` (the CLI reads them from `aof.daemon.watchdog` and `healthPort`). */
export interface WatchdogOptions {
  root: string;
  /** `aof.daemon.watchdog.pollIntervalMs` (60 s). */
  pollIntervalMs: number;
  /** `restartPolicy.maxRestarts` (3) within `restartPolicy.windowMs` (1 h). */
  maxRestarts: number;
  windowMs: number;
  /** Check `GET http://127.0.0.1:<port>/health` instead of the socket's `/healthz`. */
  port?: number;
  /** Restarts the daemon; throws when it did not come back healthy. */
  restart: (reason: string) => Promise<RestartResult>;
  /** One health check (default: `checkDaemon` on the socket or the port). */
  check?: () => Promise<HealthCheck>;
  /** How long one check waits for an answer (5 s). */
  checkTimeoutMs?: number;
  /** How long a daemon may stay starting or stopping before that counts as a failure (30 s). */
  transientGraceMs?: number;
  clock?: Clock;
  /** Lines for the operator (restarts, the critical report): the watchdog's stderr. */
  alert?: (text: string) => void;
}

/** How a watchdog ended. */
export interface WatchdogOutcome {
  /** True when the restart limit was exceeded; `report` holds the critical report. */
  gaveUp: boolean;
  report: string[];
}

/** A running watchdog. */
export interface Watchdog {
  paths: Paths;
  /** Resolves when it stops: by `close()`, or on its own when it gives up. */
  done: Promise<WatchdogOutcome>;
  stats(): { polls: number; lastPollAt: string | null; history: RestartRecord[] };
  close(): Promise<void>;
}

/**
 * Starts the watchdog: checks the daemon now and every `pollIntervalMs`; restarts a failed daemon
 * and records why (log `data/logs/watchdog.log` and `alert`); a daemon stopped gracefully while
 * watched is left stopped. When a restart would be the (maxRestarts + 1)th within `windowMs`, it
 * prints the critical report instead and stops.
 */
export function startWatchdog(options: WatchdogOptions): Watchdog {
  const paths = toPaths(options.root);
  const clock = options.clock ?? systemClock;
  const log = createLog({ file: paths.watchdogLog, now: clock });
  const check = options.check ?? (() => checkDaemon(paths, { port: options.port, timeoutMs: options.checkTimeoutMs }));
  const state: LoopState = {
    polls: 0,
    lastPollAt: null,
    previous: null,
    transientSince: null,
    lastHealthy: null,
    history: [],
    stopped: false,
    closing: false,
  };
  const say = (text: string) => {
    log.alert(text);
    options.alert?.(`${text}\n`);
  };
  let finish!: (outcome: WatchdogOutcome) => void;
  const done = new Promise<WatchdogOutcome>((resolve) => (finish = resolve));
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const end = async (outcome: WatchdogOutcome) => {
    if (state.stopped) return;
    state.stopped = true;
    clearTimeout(timer);
    log.info('watchdog.stopped', { gaveUp: outcome.gaveUp });
    await log.close();
    finish(outcome);
  };
  const loop = () => {
    inFlight = poll({ options, paths, clock, log, say, check, state, end }).then(() => {
      if (!state.stopped && !state.closing) timer = setTimeout(loop, options.pollIntervalMs);
    });
  };
  log.info('watchdog.started', {
    via: options.port === undefined ? paths.socket : healthUrl('127.0.0.1', options.port),
    pollIntervalMs: options.pollIntervalMs,
    maxRestarts: options.maxRestarts,
    windowMs: options.windowMs,
  });
  timer = setTimeout(loop, 0);
  return {
    paths,
    done,
    stats: () => ({
      polls: state.polls,
      lastPollAt: state.lastPollAt,
      history: state.history.map(({ at, reason, outcome }) => ({ at, reason, outcome })),
    }),
    async close() {
      state.closing = true;
      clearTimeout(timer);
      await inFlight;
      await end({ gaveUp: false, report: [] });
    },
  };
}

// --- internal ---

interface LoopState {
  polls: number;
  lastPollAt: string | null;
  previous: HealthCheck['state'] | 'restarted' | null;
  /** When the daemon was first seen starting or stopping, in this run of such looks. */
  transientSince: number | null;
  lastHealthy: { at: string; status?: HealthCheck['status'] } | null;
  /** Restarts and first starts; only `counted` ones count toward `maxRestarts`. */
  history: (RestartRecord & { time: number; counted: boolean })[];
  stopped: boolean;
  /** `close()` was called: an in-flight check acts no more. */
  closing: boolean;
}

interface PollContext {
  options: WatchdogOptions;
  paths: Paths;
  clock: Clock;
  log: DaemonLog;
  say: (text: string) => void;
  check: () => Promise<HealthCheck>;
  state: LoopState;
  end: (outcome: WatchdogOutcome) => Promise<void>;
}

async function poll(ctx: PollContext): Promise<void> {
  const { state, log } = ctx;
  const result = await ctx
    .check()
    .catch((err: unknown): HealthCheck => ({ state: 'failed', reason: describeError(err) }));
  if (state.stopped || state.closing) return;
  const now = ctx.clock();
  state.polls++;
  state.lastPollAt = now.toISOString();
  const previous = state.previous;
  if (result.state !== 'transient') state.transientSince = null;
  if (result.state === 'healthy') {
    if (previous !== 'healthy') log.info('watchdog.healthy', { after: previous ?? 'start', pid: result.status?.pid });
    state.previous = 'healthy';
    state.lastHealthy = { at: state.lastPollAt, status: result.status };
    return;
  }
  if (result.state === 'busy') {
    // alive and answering, only full: a restart would drop every request in flight
    if (previous !== 'busy')
      ctx.say(
        `[AOF] Watchdog: the svc daemon answered 503 busy (${result.reason}); it is alive, so it is not restarted.`,
      );
    state.previous = 'busy';
    return;
  }
  const grace = ctx.options.transientGraceMs ?? 30_000;
  state.transientSince ??= result.state === 'transient' ? now.getTime() : null;
  if (result.state === 'transient' && now.getTime() - state.transientSince! <= grace)
    return void (state.previous = 'transient');
  if (result.state === 'stopped' && previous !== null && previous !== 'failed') {
    if (previous !== 'stopped')
      log.info('watchdog.daemon_stopped', {
        message: 'the daemon was stopped gracefully; it is left stopped until it runs again',
      });
    state.previous = 'stopped';
    return;
  }
  const reason =
    result.state === 'transient'
      ? `still starting or stopping after ${formatMs(grace)} (${result.reason})`
      : result.state === 'stopped'
        ? 'not running'
        : (result.reason ?? 'unhealthy');
  state.transientSince = null;
  // the watchdog's own first start of a daemon that is not running is no restart: it does not count
  await onFailure(ctx, { now, reason, result, first: previous === null && result.state === 'stopped' });
}

/** A failed health check: when, why, what it found, and whether it is the first look at a daemon not running. */
interface Failure {
  now: Date;
  reason: string;
  result: HealthCheck;
  /** The watchdog's own first start of a daemon that is not running (not counted as a restart). */
  first: boolean;
}

async function onFailure(ctx: PollContext, { now, reason, result, first }: Failure): Promise<void> {
  const { options, state, log, say } = ctx;
  const time = now.getTime();
  state.history = state.history.filter((r) => time - r.time <= options.windowMs);
  const recent = state.history.filter((r) => r.counted);
  if (!first && recent.length >= options.maxRestarts) {
    state.history.push({
      at: now.toISOString(),
      time,
      reason,
      outcome: 'not restarted: limit reached',
      counted: false,
    });
    const report = formatCriticalReport({
      paths: ctx.paths,
      now,
      maxRestarts: options.maxRestarts,
      windowMs: options.windowMs,
      history: state.history,
      current: result,
      lastHealthy: state.lastHealthy,
      lastPollAt: state.lastPollAt ?? now.toISOString(),
    });
    log.error('watchdog.critical', { reason, restarts: recent.length, windowMs: options.windowMs });
    say(report.join('\n'));
    return ctx.end({ gaveUp: true, report });
  }
  if (first)
    say(`[AOF] Watchdog: the svc daemon is not running; starting it (a first start, not counted as a restart).`);
  else
    say(
      `[AOF] Watchdog: the svc daemon is unhealthy (${reason}); restarting it ` +
        `(${recent.length + 1} of ${options.maxRestarts} within ${formatMs(options.windowMs)}).`,
    );
  log.warn(first ? 'watchdog.starting' : 'watchdog.restarting', { reason, attempt: first ? 0 : recent.length + 1 });
  let outcome: string;
  try {
    const restarted = await options.restart(reason);
    outcome =
      `${first ? 'started' : 'restarted'} (pid ${restarted.pid ?? '?'}, ` +
      `${restarted.how === 'supervisor' ? 'through the supervisor' : 'directly'})`;
    state.previous = 'restarted';
  } catch (err) {
    outcome = `${first ? 'start' : 'restart'} failed: ${describeError(err).split('\n')[0]!.replace(/\.$/, '')}`;
    state.previous = 'failed';
  }
  state.history.push({ at: now.toISOString(), time, reason, outcome, counted: !first });
  log.info('watchdog.restart', { reason, outcome });
  say(`[AOF] Watchdog: ${outcome}.`);
}
