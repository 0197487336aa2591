import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { HealthCheck } from '../../../lib/daemon/watchdog/check.js';
import { startWatchdog, type Watchdog, type WatchdogOptions } from '../../../lib/daemon/watchdog/watchdog.js';
import { appendEvents } from '../../../lib/store/events/log.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { writeTaskFiles } from '../../helpers/daemon.js';
import { cleanRoots, fixedClock, logShows, tempRoot, within } from '../../helpers/root.js';

// The restart policy over scripted health checks: each poll takes the next check of the script
// (the last one repeats) and the clock moves by `step` ms per poll.
const HOUR = 3_600_000;
const failed = (reason: string): HealthCheck => ({ state: 'failed', reason });
const healthy: HealthCheck = { state: 'healthy' };
const stopped: HealthCheck = { state: 'stopped', reason: 'no pid file and no socket' };
const stopping: HealthCheck = { state: 'transient', reason: 'the daemon answers 503 (stopping)' };
const busy: HealthCheck = {
  state: 'busy',
  reason: 'data/daemon.sock answered 503 busy (all 256 open connections have a request in flight)',
};

const running: Watchdog[] = [];

function scripted(root: string, script: HealthCheck[], extra: Partial<WatchdogOptions> & { step?: number } = {}) {
  const clock = fixedClock('2026-11-23T08:00:00.000Z');
  const restarts: string[] = [];
  const alerts: string[] = [];
  let next = 0;
  const watchdog = startWatchdog({
    root,
    pollIntervalMs: 5,
    maxRestarts: 3,
    windowMs: HOUR,
    clock,
    check: async () => {
      clock.advance(extra.step ?? 1000);
      return script[Math.min(next++, script.length - 1)]!;
    },
    restart: async (reason) => {
      restarts.push(reason);
      return { how: 'direct', pid: 1000 + restarts.length };
    },
    alert: (text) => void alerts.push(text),
    ...extra,
  });
  running.push(watchdog);
  return { watchdog, restarts, alerts, polls: () => next };
}

const policy = suite('daemon.startWatchdog');
policy.after.each(async () => {
  await Promise.all(running.splice(0).map((w) => w.close()));
  cleanRoots();
});

policy(
  'restarts a failed daemon and records why; past maxRestarts within the window it prints the critical report and stops',
  async () => {
    const root = tempRoot();
    await writeTaskFiles(root, 4, (i) => (i === 1 ? 'backlog' : i === 2 ? 'ready' : i === 3 ? 'in-progress' : 'done'));
    await appendEvents(root, new Date('2026-11-23T07:59:00.000Z'), [
      { type: 'task.dispatched', taskId: 'TASK-2026-01-01-003', actor: 'scheduler', payload: {} },
    ]);
    const { watchdog, restarts, alerts } = scripted(
      root,
      [
        {
          state: 'healthy',
          status: {
            uptimeMs: 65_000,
            scheduler: { lastPollAt: '2026-11-23T07:59:30.000Z', lastTickAt: null },
          } as HealthCheck['status'],
        },
        failed('pid 11 in data/daemon.pid is not alive'),
        failed('nothing answers on data/daemon.sock'),
        failed('/healthz answered HTTP 500'),
        failed('pid 12 in data/daemon.pid is not alive'),
      ],
      { maxRestarts: 3 },
    );
    const outcome = await watchdog.done;
    assert.equal(restarts, [
      'pid 11 in data/daemon.pid is not alive',
      'nothing answers on data/daemon.sock',
      '/healthz answered HTTP 500',
    ]);
    assert.ok(outcome.gaveUp);
    const report = outcome.report.join('\n');
    assert.match(
      outcome.report[0]!,
      /^\[AOF\] WATCHDOG CRITICAL: the svc daemon of .* keeps failing; the watchdog stopped restarting it\.$/,
    );
    assert.match(
      report,
      'Summary: 3 restart(s) within 1h reached restartPolicy.maxRestarts = 3; the daemon failed again: pid 12 in data/daemon.pid is not alive.',
    );
    assert.match(
      report,
      'Restart history:\n  2026-11-23T08:00:02.000Z  pid 11 in data/daemon.pid is not alive -> restarted (pid 1001, directly)\n',
    );
    assert.match(
      report,
      '  2026-11-23T08:00:04.000Z  /healthz answered HTTP 500 -> restarted (pid 1003, directly)\n  2026-11-23T08:00:05.000Z  pid 12 in data/daemon.pid is not alive -> not restarted: limit reached\n',
    );
    assert.match(
      report,
      'Current health:\n  Status: down (pid 12 in data/daemon.pid is not alive)\n  Uptime: none (last healthy at 2026-11-23T08:00:01.000Z, up 1m 5s)\n',
    );
    assert.match(
      report,
      '  Last poll: watchdog 2026-11-23T08:00:05.000Z; scheduler 2026-11-23T07:59:30.000Z\n  Last event: 2026-11-23T07:59:00.000Z task.dispatched TASK-2026-01-01-003\n',
    );
    assert.match(report, 'Tasks: open 1, ready 1, in progress 1, blocked 0, done 1\n');
    assert.match(
      report,
      /Action required: read .*daemon\.log and .*watchdog\.log, fix the cause, then start the daemon with `svc daemon start`/,
    );
    assert.equal(alerts.filter((a) => a.startsWith('[AOF] Watchdog: the svc daemon is unhealthy')).length, 3);
    assert.match(alerts.at(-1)!, report, 'the report goes to stderr');
    const log = readFileSync(toPaths(root).watchdogLog, 'utf8');
    assert.match(log, report, 'and to data/logs/watchdog.log');
    assert.match(log, /warn watchdog\.restarting \{"reason":"nothing answers on data\/daemon\.sock","attempt":2\}/);
  },
);

policy('restarts older than windowMs do not count', async () => {
  const root = tempRoot();
  const { watchdog, restarts, polls } = scripted(root, [failed('down')], {
    maxRestarts: 1,
    windowMs: 1500,
    step: 2000,
  });
  await within(10_000, () => polls() >= 6);
  assert.ok(restarts.length >= 5);
  assert.is(watchdog.stats().history.length, 1, 'only the restarts within the window are kept');
  await watchdog.close();
  assert.equal(await watchdog.done, { gaveUp: false, report: [] });
});

policy(
  'a daemon stopped gracefully while watched is left stopped; one not running at the start is started',
  async () => {
    const root = tempRoot();
    const watched = scripted(root, [healthy, stopped]);
    await within(10_000, () => watched.polls() >= 5);
    assert.equal(watched.restarts, []);
    await logShows(toPaths(root).watchdogLog, /watchdog\.daemon_stopped/);
    await watched.watchdog.close();
    const fresh = scripted(tempRoot(), [stopped, healthy]);
    await within(10_000, () => fresh.polls() >= 3);
    assert.equal(fresh.restarts, ['not running']);
  },
);

policy('a daemon starting or stopping is given transientGraceMs; longer is a failure', async () => {
  const root = tempRoot();
  const { restarts, polls } = scripted(
    root,
    [healthy, stopping, stopping, stopped, stopping, stopping, stopping, stopping, healthy],
    { transientGraceMs: 2500 },
  );
  await within(10_000, () => polls() >= 10);
  assert.equal(
    restarts,
    ['still starting or stopping after 2s (the daemon answers 503 (stopping))'],
    'polls 5-7 are within 2.5 s of the 5th; the 8th is past it',
  );
});

policy('a restart that fails is recorded with its error and counts toward the limit', async () => {
  const root = tempRoot();
  const { watchdog } = scripted(root, [failed('down')], {
    maxRestarts: 2,
    restart: async () => {
      throw new Error('The daemon exited before it became healthy (exit code 1).\nLast log lines: ...');
    },
  });
  const outcome = await watchdog.done;
  assert.ok(outcome.gaveUp);
  assert.equal(
    watchdog.stats().history.map((r) => r.outcome),
    [
      'restart failed: The daemon exited before it became healthy (exit code 1)',
      'restart failed: The daemon exited before it became healthy (exit code 1)',
      'not restarted: limit reached',
    ],
  );
});

policy(
  'its own first start of a daemon not running is no restart: with maxRestarts 2 it still recovers two crashes',
  async () => {
    const root = tempRoot();
    const { watchdog, restarts, alerts } = scripted(
      root,
      [stopped, healthy, failed('crash 1'), healthy, failed('crash 2'), healthy, failed('crash 3')],
      { maxRestarts: 2 },
    );
    const outcome = await watchdog.done;
    assert.equal(restarts, ['not running', 'crash 1', 'crash 2']);
    assert.equal(
      watchdog.stats().history.map((r) => r.outcome),
      [
        'started (pid 1001, directly)',
        'restarted (pid 1002, directly)',
        'restarted (pid 1003, directly)',
        'not restarted: limit reached',
      ],
    );
    assert.match(alerts[0]!, 'the svc daemon is not running; starting it (a first start, not counted as a restart)');
    assert.match(alerts[2]!, 'restarting it (1 of 2 within 1h)', 'each outcome has its own alert line after the first');
    assert.match(alerts[1]!, '[AOF] Watchdog: started (pid 1001, directly).');
    assert.match(
      outcome.report.join('\n'),
      'Summary: 2 restart(s) within 1h reached restartPolicy.maxRestarts = 2; the daemon failed again: crash 3.',
    );
  },
);

policy('a daemon that answers 503 busy is alive: never restarted, and the alert says it answered busy', async () => {
  const root = tempRoot();
  const { restarts, alerts, polls } = scripted(root, [healthy, busy, busy, busy, busy, healthy, busy], {
    maxRestarts: 1,
  });
  await within(10_000, () => polls() >= 10);
  assert.equal(restarts, []);
  assert.equal(
    alerts,
    [
      '[AOF] Watchdog: the svc daemon answered 503 busy (data/daemon.sock answered 503 busy (all 256 open connections have a request in flight)); it is alive, so it is not restarted.\n',
      '[AOF] Watchdog: the svc daemon answered 503 busy (data/daemon.sock answered 503 busy (all 256 open connections have a request in flight)); it is alive, so it is not restarted.\n',
    ],
    'once per run of busy looks',
  );
});

policy.run();
