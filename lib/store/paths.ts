import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { STATUSES, type Status } from '../core/status.js';

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
  /** Markers of spawns leased but not yet handed to an adapter (requeued at once after a crash). */
  spawns: string;
  /** The pid of each running local command agent (`<task id>@<session>`), so a cancel ends it even after a restart. */
  runs: string;
  statusDir(status: Status): string;
  taskFile(status: Status, id: string): string;
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
    root, tasks, locks, seq, org, data, events, workflows, murmur,
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
    runs: join(data, 'runs'),
    slaAlerts: join(data, 'sla-alerts.json'),
    statusDir: (status) => join(tasks, status),
    taskFile: (status, id) => join(tasks, status, `${id}.md`),
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

/** True for a temporary file left by an atomic write (`<id>.md.<suffix>`). */
export function isTempName(fileName: string): boolean {
  return !fileName.startsWith('.') && /\.md\.[^/]+$/.test(fileName);
}

export { STATUSES };
