import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { STATUSES, type Status } from '../../core/status.js';

/** Every path of the svc home; the only place that knows the disk layout (docs/architecture.md, "Disk layout"). */
export interface Paths {
  root: string;
  tasks: string;
  locks: string;
  seq: string;
  org: string;
  orgChart: string;
  workflows: string;
  murmur: string;
  data: string;
  socket: string;
  pidFile: string;
  /** The daemon's instance lock (a lock directory, held for the daemon's whole life). */
  instanceLock: string;
  logs: string;
  daemonLog: string;
  /** The log of `svc daemon watchdog` (restarts and their reasons, the critical report). */
  watchdogLog: string;
  events: string;
  /** Event lines kept while `events` could not be appended, merged into it later (`data/events-spool/`). */
  eventsSpool: string;
  conflicts: string;
  envFile: string;
  /** The web board's token (`svc web`), mode 0600. */
  webToken: string;
  /** Markers of spawns leased but not yet handed to an adapter (requeued at once after a crash). */
  spawns: string;
  /** The pid of each running local command agent (`<task id>@<session>`), so a cancel ends it even after a restart. */
  runs: string;
  /**
   * The brief of each such run (`<task id>@<session>`, mode 0600, `SVC_TASK_BRIEF_FILE`), removed once the run is gone.
   */
  briefs: string;
  /**
   * `data/runtimes/`: one directory per run of an agent CLI (`<task id>@<session>`): its record and the files its
   * invocation needs, removed once the run's usage is recorded.
   */
  runtimes: string;
  /** An agent's directory for one task, kept across its runs (`data/runtime-state/<task id>/<agent>/`). */
  runtimeState(taskId: string, agent: string): string;
  /**
   * The worktrees svc created, one record each (`<task id>.json`, `removed/<task id>.json` once removed): only these
   * are ever removed, their branches pruned (docs/workspaces.md).
   */
  workspaces: string;
  /**
   * The records of the worktrees svc removed (`<task id>.json`, with when and why), so a task's workspace can say so.
   */
  workspacesRemoved: string;
  /**
   * A check's process group while it runs (`<task id>`), so a restarted daemon ends it before running the checks again.
   */
  checks: string;
  /** Per-run output logs, one folder per task (`<task id>/<session or check>-<n>.log`). */
  /** The port the web board last listened on, reused at the next open or start so an open page reconnects. */
  webPort: string;
  runLogs: string;
  /** The answers of recent request ids, one file each, so a retried call is answered, not applied again. */
  requests: string;
  /** The log of each run of a task (a local agent's output, a check's), `<session or check>-<n>.log`. */
  runLogDir(taskId: string): string;
  /** The working directory of a local agent's run without a worktree (`data/scratch/<task id>/<session>`). */
  scratchDir(taskId: string, sessionId: string): string;
  statusDir(status: Status): string;
  taskFile(status: Status, id: string): string;
  /** The listing rows of one status directory, cached by file identity (`data/cache/rows-<status>.json`). */
  rowCache(status: Status): string;
  /** Archived tasks (`tasks/archive/`, not a status: never loaded by the index, watched or reconciled). */
  archive: string;
  /** The archive of one month (`yyyy-mm`, the month of the task's last transition). */
  archiveDir(month: string): string;
  archiveFile(month: string, id: string): string;
  lockFile(id: string): string;
  /** Reservations of the ids of one UTC day: one empty file per allocated sequence number. */
  seqDir(date: string): string;
  eventFile(date: string): string;
  workflowFile(name: string): string;
  murmurFile(teamId: string): string;
  /** A Markdown document beside the org chart (`org/<name>.md`), e.g. the vision and roadmap of murmur reviews. */
  orgDoc(name: string): string;
  /** When each in-progress task last raised an SLA alert (the rate limit survives a restart). */
  slaAlerts: string;
  /** Agents paused by `svc agent pause` (no new dispatch; survives a restart). */
  agentPauses: string;
  /** The lock directory of `agentPauses` (one writer at a time). */
  agentPausesLock: string;
  /** The lock of svc's own writers of the org chart (`svc agent add`). */
  orgChartLock: string;
  /** The tasks whose passed `dueAt` raised an OVERDUE alert (one alert per due time, across restarts). */
  overdueAlerts: string;
  /** What `svc migrate` did (`data/migrations.json`) and the copies it kept (`data/backups/<time>/`). */
  migrations: string;
  backups: string;
  /** Maps of source ids to svc ids, one per import source (`data/imports/<source>.json`). */
  imports: string;
  /** Notifications not yet delivered (`data/outbox/<deliveryId>.json`) and those given up (`failed/`). */
  outbox: string;
  outboxFailed: string;
  /** Who holds a team-wide duty (murmur of a team, SLA alerts) among the daemons sharing the tree, and its state. */
  dutyFile(duty: string): string;
}

/** The svc home: `SVC_HOME` when given, else `~/.svc`. */
export function toRoot(svcHome: string | undefined): string {
  return resolve(svcHome && svcHome.trim() ? svcHome : join(homedir(), '.svc'));
}

/** Builds the paths of a root. */
export function toPaths(rootArg: string): Paths {
  const root = resolve(rootArg);
  const tasks = join(root, 'tasks');
  const data = join(root, 'data');
  const org = join(root, 'org');
  const locks = join(tasks, '.locks');
  const seq = join(tasks, '.seq');
  const events = join(data, 'events');
  const workflows = join(org, 'workflows');
  const murmur = join(root, '.murmur');
  return {
    root,
    tasks,
    locks,
    seq,
    org,
    data,
    events,
    workflows,
    murmur,
    eventsSpool: join(data, 'events-spool'),
    orgChart: join(org, 'org-chart.yaml'),
    socket: join(data, 'daemon.sock'),
    pidFile: join(data, 'daemon.pid'),
    instanceLock: join(data, 'daemon.pid.lock'),
    logs: join(data, 'logs'),
    daemonLog: join(data, 'logs', 'daemon.log'),
    watchdogLog: join(data, 'logs', 'watchdog.log'),
    conflicts: join(data, 'conflicts'),
    envFile: join(data, 'daemon.env'),
    spawns: join(data, 'spawns'),
    webToken: join(data, 'web.token'),
    webPort: join(data, 'web.port'),
    runLogs: join(data, 'logs', 'runs'),
    runs: join(data, 'runs'),
    briefs: join(data, 'briefs'),
    runtimes: join(data, 'runtimes'),
    runtimeState: (taskId, agent) => join(data, 'runtime-state', taskId, agent.replace(/[^A-Za-z0-9._-]/g, '_')),
    workspaces: join(data, 'workspaces'),
    workspacesRemoved: join(data, 'workspaces', 'removed'),
    checks: join(data, 'checks'),
    requests: join(data, 'requests'),
    slaAlerts: join(data, 'sla-alerts.json'),
    agentPauses: join(data, 'agent-pauses.json'),
    agentPausesLock: join(data, 'agent-pauses.lock'),
    orgChartLock: join(data, 'org-chart.lock'),
    overdueAlerts: join(data, 'overdue-alerts.json'),
    migrations: join(data, 'migrations.json'),
    backups: join(data, 'backups'),
    imports: join(data, 'imports'),
    outbox: join(data, 'outbox'),
    outboxFailed: join(data, 'outbox', 'failed'),
    runLogDir: (taskId) => join(data, 'logs', 'runs', taskId),
    scratchDir: (taskId, sessionId) => join(data, 'scratch', taskId, sessionId.replace(/[^A-Za-z0-9._-]/g, '_')),
    statusDir: (status) => join(tasks, status),
    taskFile: (status, id) => join(tasks, status, `${id}.md`),
    rowCache: (status) => join(data, 'cache', `rows-${status}.json`),
    archive: join(tasks, 'archive'),
    archiveDir: (month) => join(tasks, 'archive', month),
    archiveFile: (month, id) => join(tasks, 'archive', month, `${id}.md`),
    lockFile: (id) => join(locks, `${id}.lock`),
    seqDir: (date) => join(seq, date),
    eventFile: (date) => join(events, `${date}.jsonl`),
    workflowFile: (name) => join(workflows, `${name}.yaml`),
    murmurFile: (teamId) => join(murmur, `${teamId}.json`),
    orgDoc: (name) => join(org, `${name}.md`),
    dutyFile: (duty) => join(tasks, '.duties', `${duty}.json`),
  };
}

/** The id of a task file name (`<id>.md`), or null for anything else (dotfiles, temporaries). */
export function toTaskId(fileName: string): string | null {
  if (fileName.startsWith('.') || !fileName.endsWith('.md')) return null;
  const id = fileName.slice(0, -3);
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) && !id.includes('..') && !/\.md\./.test(fileName) ? id : null;
}

/** The archive month of a time (`2026-10`), or null for a time that does not parse. */
export function toArchiveMonth(iso: string): string | null {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 7) : null;
}

/** True for an archive month directory name (`yyyy-mm`). */
export function isArchiveMonth(name: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(name);
}

/** True for a temporary file left by an atomic write (`<id>.md.<suffix>`). */
export function isTempName(fileName: string): boolean {
  return !fileName.startsWith('.') && /\.md\.[^/]+$/.test(fileName);
}

export { STATUSES };
