import { basename } from 'node:path';
import { SvcError } from '../../core/errors.js';
import type { Status } from '../../core/status.js';
import {
  parseTask,
  toDispatchFailures,
  toNextAttemptAt,
  type Lease,
  type Priority,
  type Routing,
} from '../../core/task.js';
import { MAX_FILE_BYTES, parseFrontmatter } from '../../fs/frontmatter.js';
import { readRegularFileSync } from '../../fs/regular-file.js';
import { toTaskId, type Paths } from '../disk/paths.js';
import { toAwaitingField, toBudgetWaitField } from '../listing/task-row.js';
import type { BudgetWait } from '../disk/budget.js';
import type { StoredTask } from '../disk/task-file.js';

/** One task as the index holds it: frontmatter fields only, never the body. */
export interface IndexEntry {
  id: string;
  status: Status;
  /** The task file, `tasks/<status>/<id>.md` (derived from the two, not stored: 100,000 paths are megabytes). */
  readonly path: string;
  title: string;
  priority: Priority;
  routing: Routing;
  dependsOn: string[];
  lease?: Lease;
  /** The lease holder, else `routing.agent`. */
  agent?: string;
  createdAt: string;
  updatedAt: string;
  project: string;
  /** The parent task (`parentId`), for `svc task tree` and the listing's `--parent`. */
  parentId: string | undefined;
  /** The workflow position of a gated task. */
  gate: { workflow: string; current: string } | undefined;
  /** A task waiting at an approval gate (`metadata.awaiting`), whatever its directory. */
  awaiting: { gate: string; since: string } | undefined;
  /** A task paused because a budget is spent (`metadata.awaiting` of kind `budget`). */
  budgetWait: BudgetWait | undefined;
  /** Consecutive failed dispatches (`metadata.dispatchFailures`). */
  dispatchFailures: number;
  /** After a failed dispatch, when the next attempt may start (`metadata.nextAttemptAt`). */
  nextAttemptAt: string | undefined;
  /** Not dispatched before this time (`notBefore`). */
  notBefore: string | undefined;
  /** Due by this time (`dueAt`). */
  dueAt: string | undefined;
  /** The host that holds the task's worktree (`workspace.host`): only its daemon dispatches the task. */
  workspaceHost: string | undefined;
  /** The frontmatter names another status than the directory (the file was moved by hand). */
  moved: boolean;
  /** The file's mtime as of the stat of `stamp` (derived from it, not stored). */
  readonly mtimeMs: number;
  /** Identity of the file version read: `<inode>:<size>:<mtimeMs>`, from a stat taken before the read. */
  stamp: string;
}

/** The same checks as the store's `readTaskFile`, on a synchronous read, into a compact entry. */
export function readEntrySync(paths: Paths, { status, id }: { status: Status; id: string }, stamp: string): IndexEntry {
  const path = paths.taskFile(status, id);
  const parsed = parseFrontmatter(readRegularFileSync(path, MAX_FILE_BYTES).text, path);
  const task = parseTask(parsed.data, path);
  if (task.id !== id) {
    throw new SvcError(
      'validation_error',
      `${path}: the file name says ${JSON.stringify(toTaskId(basename(path)))} ` +
        `but the frontmatter id is ${JSON.stringify(task.id)}.`,
      'Rename the file to <id>.md or fix the id field.',
    );
  }
  return toEntry(paths, { task, status, stamp, id });
}

/** An entry from a file read by the store, with the stamp taken before the read (a later change then shows). */
export function fromStored(paths: Paths, stored: StoredTask, stamp: string): IndexEntry {
  return toEntry(paths, { task: stored.task, status: stored.status, stamp });
}

/**
 * A file's stamp, `<inode>:<size>:<mtimeMs>`, as one flat string (a template literal leaves a chain of pieces, three
 * times the memory).
 */
export function toStamp(s: { ino: number; size: number; mtimeMs: number }): string {
  return [s.ino, s.size, s.mtimeMs].join(':');
}

// --- internal ---

/**
 * Builds an entry with one fixed shape (every key present, none deleted: a deleted key would give each
 * entry its own hidden class) from fresh copies of the fields (parser strings are slices of the file text).
 */
function toEntry(
  paths: Paths,
  read: { task: StoredTask['task']; status: Status; stamp: string; id?: string },
): IndexEntry {
  const { task, status, stamp } = read;
  const copy = JSON.parse(
    JSON.stringify([
      task.id,
      task.title,
      task.priority,
      task.routing,
      task.dependsOn,
      task.lease ?? null,
      task.createdAt,
      task.updatedAt,
      task.project,
      task.parentId ?? null,
    ]),
  ) as [string, string, Priority, Routing, string[], Lease | null, string, string, string, string | null];
  const [copiedId, title, priority, routing, dependsOn, lease, createdAt, copiedUpdatedAt, project, parentId] = copy;
  const id = read.id ?? copiedId; // the listing's id (one string for the index's map, sets and entry)
  const updatedAt = copiedUpdatedAt === createdAt ? createdAt : copiedUpdatedAt; // never changed: one string for both
  const agent = lease?.agent ?? routing.agent;
  const gate = task.gate ? { workflow: `${task.gate.workflow}`, current: `${task.gate.current}` } : undefined;
  const entry = {
    id,
    status,
    title,
    priority,
    routing,
    dependsOn: dependsOn.length ? dependsOn : NO_DEPENDENCIES,
    lease: lease ?? undefined,
    agent,
    createdAt,
    updatedAt,
    project,
    parentId: parentId ?? undefined,
    stamp,
    gate,
    awaiting: toAwaitingField(status, task.metadata).awaiting,
    budgetWait: toBudgetWaitField(status, task.metadata).budgetWait,
    dispatchFailures: toDispatchFailures(task.metadata),
    nextAttemptAt: toNextAttemptAt(task.metadata),
    moved: task.status !== status,
    notBefore: task.notBefore === undefined ? undefined : `${task.notBefore}`,
    dueAt: task.dueAt === undefined ? undefined : `${task.dueAt}`,
    workspaceHost: task.workspace === undefined ? undefined : `${task.workspace.host}`,
  };
  return Object.setPrototypeOf(entry, entryPrototype(paths)) as IndexEntry;
}

/**
 * The prototype of the entries of one tree: the `path` and `mtimeMs` getters (one prototype per tree, so every entry
 * keeps one shape).
 */
function entryPrototype(paths: Paths): object {
  let proto = prototypes.get(paths);
  if (!proto) {
    proto = Object.create(Object.prototype, {
      path: {
        get(this: IndexEntry) {
          return paths.taskFile(this.status, this.id);
        },
        enumerable: false,
      },
      mtimeMs: {
        get(this: IndexEntry) {
          return Number(this.stamp.slice(this.stamp.lastIndexOf(':') + 1));
        },
        enumerable: false,
      },
    }) as object;
    prototypes.set(paths, proto);
  }
  return proto;
}

const prototypes = new WeakMap<Paths, object>();

/** Shared by every entry without dependencies (never mutated). */
const NO_DEPENDENCIES: string[] = [];
