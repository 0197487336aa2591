import { probeDaemon, type DaemonProbe } from '../../daemon/control.js';
import { checkHealthPort, HEALTH_HOST, type HealthAnswer } from '../../daemon/health-port.js';
import { healthUrl } from '../../net/protocol/routes.js';
import type { ConfigReport, LeaseOwners } from '../../net/protocol/status.js';
import { toPaths, type Paths } from '../../store/disk/paths.js';
import { formatPausedLines } from '../output/agent-format.js';
import { formatNotifyLines } from '../notify/status-lines.js';
import type { Context } from '../frame/context.js';

/**
 * `svc daemon status [--json] [--port n]`: the daemon's health, its `/status` in lines, and the health port when asked;
 * exit 3 when down.
 */
export async function printDaemonStatus(
  ctx: Context,
  { json, port }: { json: boolean; port: number | undefined },
): Promise<void> {
  const paths = toPaths(ctx.root);
  const [probe, health] = await Promise.all([
    probeDaemon(paths),
    port === undefined ? undefined : checkHealthPort(port),
  ]);
  const healthPort =
    port === undefined || !health
      ? {}
      : {
          healthPort: {
            url: healthUrl(HEALTH_HOST, port),
            status: health.status,
            healthy: health.healthy,
            ...(health.reason ? { reason: health.reason } : {}),
          },
        };
  if (probe.state === 'not-running') {
    ctx.exitCode = 3;
    if (json) return ctx.json({ status: 'not running', healthy: false, ...healthPort });
    ctx.print('Status: not running');
    if (port !== undefined && health) ctx.print(formatHealthPort(port, health));
    ctx.io.stderr('hint: start it with `svc daemon start` (or install the service with `svc daemon install`).\n');
    return;
  }
  if (!probe.healthy || (health && !health.healthy)) ctx.exitCode = 1;
  if (json)
    return ctx.json({
      ...probe.status,
      healthy: probe.healthy,
      ...(probe.reason ? { reason: probe.reason } : {}),
      ...healthPort,
    });
  const lines = formatStatus(probe, paths);
  if (port !== undefined && health) lines.splice(-2, 0, formatHealthPort(port, health));
  for (const line of lines) ctx.print(line);
}

function formatHealthPort(port: number, health: HealthAnswer): string {
  const url = healthUrl(HEALTH_HOST, port);
  return health.healthy
    ? `Health port: ${url} answers 200 (healthy)`
    : `Health port: ${url} is not healthy (${health.reason})`;
}

/**
 * The `Config:` line, and for an invalid org chart its first problems below it; a workspace whose repository is gone is
 * named either way.
 */
export function formatConfig(config: ConfigReport): string[] {
  return [
    ...formatChart(config),
    ...(config.unavailableWorkspaces ?? []).map(
      (w) => `  workspace ${w.name} UNAVAILABLE (its tasks are held, reason workspace-unavailable): ${w.problem}`,
    ),
  ];
}

// --- internal ---

function formatChart(config: ConfigReport): string[] {
  const broken = config.unavailableWorkspaces?.length ?? 0;
  if (config.orgChart === 'ok')
    return [
      `Config: ${config.file} ok (${config.agents} ` +
        `agents${broken ? `; ${broken} workspace${broken === 1 ? '' : 's'} unavailable` : ''})`,
    ];
  if (config.orgChart === 'absent')
    return [`Config: no org chart (${config.file} absent: only routing.agent routes, no local agents)`];
  const count = config.problemCount === 1 ? '1 problem' : `${config.problemCount} problems`;
  const effect =
    config.using === 'previous' ? `still using the chart loaded before` : 'no chart loaded: ready tasks are held';
  const more =
    config.problemCount > config.problems.length
      ? [`  ... (${config.problemCount - config.problems.length} more: svc org validate)`]
      : [];
  return [
    `Config: ${config.file} INVALID since ${config.since} (${count}; ${effect}):`,
    ...config.problems.map((p) => `  ${p}`),
    ...more,
  ];
}

function formatStatus(probe: DaemonProbe, paths: Paths): string[] {
  const s = probe.status;
  const state =
    probe.state === 'running'
      ? 'running (healthy)'
      : probe.state === 'stopping'
        ? 'running (stopping)'
        : probe.state === 'busy'
          ? `running (busy: ${probe.reason})`
          : `running (unhealthy: ${probe.reason})`;
  const lines = [`Status: ${state}`];
  if (s) {
    lines.push(
      `Version: ${s.version}`,
      `PID: ${probe.pid ?? s.pid}`,
      `Uptime: ${formatDuration(s.uptimeMs)}`,
      `Mode: ${s.mode}`,
    );
    lines.push(
      `Tasks: ${Object.entries(s.tasks.byStatus)
        .map(([name, n]) => `${name} ${n}`)
        .join(', ')}${s.tasks.invalid ? `; ${s.tasks.invalid} invalid file(s), see svc doctor` : ''}`,
    );
    for (const plugin of s.plugins) lines.push(`Plugin: ${plugin.id} (attached since ${plugin.since})`);
    lines.push(
      ...(s.leases ? formatLeases(s.leases) : []),
      ...(s.config ? formatConfig(s.config) : []),
      ...formatPausedLines(s.pausedAgents ?? []),
      ...(s.notify ? formatNotifyLines(s.notify) : []),
    );
    if (s.web !== undefined)
      lines.push(
        s.web
          ? `Web board: ${s.web.url} (port ${s.web.port}; \`svc web\` prints it with its token)`
          : 'Web board: not open (`svc web` opens it)',
      );
  }
  lines.push(`Socket: ${paths.socket}`, `Log: ${paths.daemonLog}`);
  return lines;
}

/**
 * `Leases:` (in-progress tasks by who granted their lease) and one `Other daemon:` line per daemon
 * on another host, or another root of this one, that shares the tree.
 */
function formatLeases(leases: LeaseOwners): string[] {
  const parts = [`${leases.thisDaemon} by this daemon (${leases.host} pid ${leases.pid})`];
  const others = leases.others.reduce((n, other) => n + other.inProgress, 0);
  if (others) parts.push(`${others} by ${leases.others.length} other daemon${leases.others.length === 1 ? '' : 's'}`);
  if (leases.unowned) parts.push(`${leases.unowned} claimed by hand`);
  return [
    `Leases: ${parts.join(', ')}`,
    ...leases.others.map((other) => `Other daemon: ${other.host} pid ${other.pid} (${other.inProgress} in progress)`),
  ];
}

function formatDuration(ms: number): string {
  const total = Math.floor(ms / 1000);
  const [d, h, m, s] = [
    Math.floor(total / 86400),
    Math.floor(total / 3600) % 24,
    Math.floor(total / 60) % 60,
    total % 60,
  ];
  return [d ? `${d}d` : '', h ? `${h}h` : '', m ? `${m}m` : '', `${s}s`].filter(Boolean).join(' ');
}
