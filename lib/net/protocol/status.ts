import type { Status } from '../../core/status.js';

// The body of `GET /status` (docs/daemon.md, "Routes"): what `svc daemon status`, the watchdog and
// `svc daemon start` read of a running daemon.

/** The body of `GET /status`. */
export interface StatusBody {
  status: 'running' | 'stopping';
  healthy: boolean;
  version: string;
  pid: number;
  uptimeMs: number;
  mode: string;
  plugins: AttachedPlugin[];
  tasks: { byStatus: Record<Status, number>; invalid: number; loaded: boolean };
  scheduler: { lastPollAt: string | null; lastTickAt: string | null };
  /** Whose leases hold the in-progress tasks: this daemon, the other daemons on the tree, none. */
  leases: LeaseOwners;
  /** The org chart's state (with a scheduler). */
  config?: ConfigReport;
  /** The agents paused by `svc agent pause` (with a scheduler). */
  pausedAgents?: PausedAgent[];
  /** Where the web board listens (its URL without the token), or null while it is not open. */
  web?: { port: number; url: string } | null;
  /** The notifications (with a scheduler): whether this daemon delivers any, and each subscription's state. */
  notify?: NotifyStatus;
}

/** The notifications of `/status` (docs/notifications.md, "Metrics and status"). */
export interface NotifyStatus {
  /** A subscription is configured: this daemon reads its event log and delivers. */
  delivering: boolean;
  subscriptions: SubscriptionState[];
}

/** One subscription: its last outcome, failures in a row, whether a 410 disabled it, and its deliveries waiting. */
export interface SubscriptionState {
  id: string;
  kind: 'webhook' | 'command';
  lastOutcome: 'delivered' | 'retrying' | 'failed' | 'disabled' | null;
  lastError: string | null;
  consecutiveFailures: number;
  disabled: boolean;
  pending: number;
  failed: number;
}

/** A plugin that holds (or held, within the grace) a long-poll. */
export interface AttachedPlugin {
  id: string;
  since: string;
}

/** Who holds the in-progress tasks of the tree: this daemon, other daemons (by host and pid), or no daemon. */
export interface LeaseOwners {
  host: string;
  pid: number;
  /** In progress under leases this daemon granted. */
  thisDaemon: number;
  /** In progress under leases other daemons granted (other hosts, or other daemons on this one), most first. */
  others: { host: string; pid: number; inProgress: number }[];
  /** In progress under leases that name no daemon (a claim from the command line, or an older svc). */
  unowned: number;
}

/** The state of the daemon's configuration, as `/status` reports it under `config`. */
export interface ConfigReport {
  /** `org/org-chart.yaml` relative to the root. */
  file: string;
  /** `ok`: loaded; `absent`: no file (defaults; only `routing.agent` routes); `invalid`: the file does not validate. */
  orgChart: 'ok' | 'absent' | 'invalid';
  /** Agents in the chart in use. */
  agents: number;
  /** The first problems of an invalid chart, one `path: problem` each, and their total. */
  problems: string[];
  problemCount: number;
  /** With an invalid file: `previous` when a chart loaded earlier is still in use, `none` when ready tasks are held. */
  using?: 'previous' | 'none';
  /** When the current state began. */
  since: string;
  /**
   * Workspaces of the chart in use whose repository is not there now (their tasks are held, reason
   * `workspace-unavailable`); looked at on each report.
   */
  unavailableWorkspaces: { name: string; problem: string }[];
}

/** An agent paused by `svc agent pause`, as `/status` lists it. */
export interface PausedAgent {
  agent: string;
  since: string;
  by: string;
  reason?: string;
}
