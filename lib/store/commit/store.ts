import { randomUUID } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { compareText } from '../../core/compare.js';
import { forEachLimit } from '../../core/limit.js';
import { describeError, hasCode, isGone } from '../../core/errors.js';
import { isSafeId, resolveIdArg, toIdDate } from '../../core/ids.js';
import { STATUSES, type Status } from '../../core/status.js';
import { assertTaskText, parseTask, type Task } from '../../core/task.js';
import { systemClock, type Clock } from '../../core/time/clock.js';
import { ensureDir, isNameTaken } from '../../fs/atomic.js';
import { allocateId, createBlockAllocator } from './allocate.js';
import { createTaskFile } from './create.js';
import { findTaskFiles, readCopies } from './copies.js';
import { PROBE_ID, toNewTask, type CreateInput } from './new-task.js';
import { byNewest, commitTask, outsideLocker, type ChangeFn, type CommitResult, type Fault } from './protocol.js';
import { createTreeLocks } from '../../fs/lock/tree-locks.js';
import { createEventLog, type EventInput, type EventLog } from '../events/log.js';
import { toPaths, toTaskId, type Paths } from '../disk/paths.js';
import { readTaskFileSettled } from '../disk/settled-read.js';
import { renderTask, type StoredTask } from '../disk/task-file.js';

export type { CreateInput } from './new-task.js';

/** Options of `createStore`: the root, and the clock and uuid source tests control. */
export interface StoreOptions {
  root: string;
  clock?: Clock;
  newSessionId?: () => string;
  /** How long a writer waits for a held task lock before `locked` (default 5 s). */
  lockWaitMs?: number;
  /** Told when events of a committed change could not be appended (kept and retried, or spooled to `spooledTo`). */
  onEventError?: (err: unknown, pending: number, spooledTo?: string) => void;
  /** Spool events that cannot be appended to `data/events-spool/` (a process that exits soon, as a command). */
  spoolEvents?: boolean;
  /** Told of every batch of events the store records (see `EventLogOptions.onRecord`). */
  onRecordEvents?: (events: readonly EventInput[]) => void;
  /** Fault injection for crash tests (see `commitTask`); never set otherwise. */
  fault?: Fault;
  /**
   * The daemon's: true while it holds the tree (its instance lock). Its changes then take memory locks
   * (`createTreeLocks`), and lock directories only where one exists; without it, every change takes one.
   */
  treeHeld?: () => boolean;
  /**
   * Where a task is (the daemon: its index's status of the id), or undefined when unknown or when the index found a
   * second copy. `resolve` then takes a known full id without a look, and `get` and a commit's re-read look in that
   * one directory first, on a local disk (`readCopies`). Without it (a command, an MCP server) every look is full.
   */
  whereIs?: (id: string) => Status | undefined;
}

/** A file under `tasks/` that is not a valid task, with the reason. */
export interface InvalidFile {
  path: string;
  status: Status;
  message: string;
}

/** A listing: valid tasks (one per id), and the files that failed to parse. */
export interface Listing {
  tasks: StoredTask[];
  invalid: InvalidFile[];
}

/** The task store over one root. Every mutation follows the commit protocol. */
export interface Store {
  paths: Paths;
  clock: Clock;
  newSessionId: () => string;
  /** Creates the tree (status directories, a private `data/`) once; every write calls it first. */
  init(): Promise<void>;
  /** The event log of committed changes (`record` never rejects; failures go to `onEventError`). */
  events: EventLog;
  /** Creates a task in backlog (or ready) with a fresh id; the file is created exclusively. */
  create(input: CreateInput): Promise<StoredTask>;
  /** Resolves an id argument (full id, bare sequence of today or the latest date, or unique prefix). */
  resolve(arg: string): Promise<string>;
  /** Reads one task by id or prefix; two copies (mid-move) yield the newer. */
  get(arg: string): Promise<StoredTask>;
  /** Reads every task of the given statuses (all by default); invalid files are reported, not thrown. */
  list(statuses?: readonly Status[]): Promise<Listing>;
  /** Runs the commit protocol on one task (by id or prefix). */
  commit(arg: string, change: ChangeFn, actor: string): Promise<CommitResult>;
}

/** Creates the store of a root. Stateless apart from options: safe to use from many processes. */
export function createStore(options: StoreOptions): Store {
  const paths = toPaths(options.root);
  const clock = options.clock ?? systemClock;
  const newSessionId = options.newSessionId ?? randomUUID;
  const lockWaitMs = options.lockWaitMs ?? 5000;
  const events = createEventLog(paths.root, {
    ...(options.onEventError ? { onError: options.onEventError } : {}),
    spool: options.spoolEvents === true,
    ...(options.onRecordEvents ? { onRecord: options.onRecordEvents } : {}),
  });
  const taskLock = options.treeHeld
    ? createTreeLocks({ locksDir: paths.locks, held: options.treeHeld })
    : outsideLocker(paths);
  const allocateInBlocks = options.treeHeld ? createBlockAllocator() : null;
  const allocate = (now: Date) =>
    allocateInBlocks && options.treeHeld?.() ? allocateInBlocks(paths, now) : allocateId(paths, now);
  let initialized = false;

  async function init(): Promise<void> {
    if (initialized) return;
    await initTree(paths);
    initialized = true;
  }

  return {
    paths,
    clock,
    newSessionId,
    init,
    events,

    async create(input: CreateInput): Promise<StoredTask> {
      await init();
      assertTaskText(input.title, input.body);
      const now = clock();
      const status = input.status ?? 'backlog';
      const body = input.body ?? '';
      // Everything is checked before an id is reserved: a refused create leaves no trace.
      const probe = parseTask(toNewTask({ id: PROBE_ID, status }, input, now), 'new task');
      renderTask(probe, body, 'new task');
      for (;;) {
        const id = await allocate(now);
        // the one schema pass was the probe's: the real task differs in its id only, which the allocator made safe
        const task: Task = { ...probe, id };
        const created = await createTaskFile(paths, { task, body }, { lockWaitMs, taskLock, fault: options.fault });
        if (!created) continue;
        const { title, priority, routing, createdBy } = task;
        await events.record(now, [
          {
            type: 'task.created',
            taskId: id,
            actor: input.actor ?? createdBy,
            payload: { title, status, priority, routing, createdBy },
          },
        ]);
        return created;
      }
    },

    async resolve(arg: string): Promise<string> {
      if (isSafeId(arg) && options.whereIs?.(arg) !== undefined) return arg;
      if (isSafeId(arg) && (await findTaskFiles(paths, arg)).length > 0) return arg;
      return resolveIdArg(arg, (await listNames(paths)).keys(), toIdDate(clock()));
    },

    async get(arg: string): Promise<StoredTask> {
      const id = await this.resolve(arg);
      const read = (await readCopies(paths, id, { settle: false, hint: options.whereIs?.(id) })).map(
        ({ copy }) => copy,
      );
      const valid = read.filter((copy): copy is StoredTask => !(copy instanceof Error));
      if (!valid.length) throw read[0]!;
      return valid.sort(byNewest)[0]!;
    },

    async list(statuses: readonly Status[] = STATUSES): Promise<Listing> {
      return listTasks(paths, statuses);
    },

    async commit(arg: string, change: ChangeFn, actor: string): Promise<CommitResult> {
      const id = await this.resolve(arg);
      return commitTask(paths, id, {
        change,
        now: clock(),
        actor,
        lockWaitMs,
        events,
        taskLock,
        ...(options.fault ? { fault: options.fault } : {}),
        whereIs: options.whereIs,
      });
    },
  };
}

/** Creates the status directories (each with a `.gitkeep`), `tasks/.gitignore` and a private `data/`. */
export async function initTree(paths: Paths): Promise<void> {
  await ensureDir(paths.data, 0o700);
  for (const status of STATUSES) {
    await ensureDir(paths.statusDir(status));
    await writeFile(`${paths.statusDir(status)}/.gitkeep`, '', { flag: 'a' });
  }
  const gitignore = `${paths.tasks}/.gitignore`;
  await writeFile(gitignore, '.locks/\n.seq/\n', { flag: 'wx' }).catch(async (err: unknown) => {
    if (!(await isNameTaken(err, gitignore))) throw err;
  });
}

/** Lists task file names: id -> the statuses it was found in (names only; nothing is read). */
export async function listNames(paths: Paths, statuses: readonly Status[] = STATUSES): Promise<Map<string, Status[]>> {
  const out = new Map<string, Status[]>();
  await Promise.all(
    statuses.map(async (status) => {
      for (const name of await readdirOrEmpty(paths.statusDir(status))) {
        const id = toTaskId(name);
        if (!id) continue;
        const found = out.get(id);
        if (found) found.push(status);
        else out.set(id, [status]);
      }
    }),
  );
  return out;
}

/** Reads the tasks of some statuses with bounded parallelism. */
export async function listTasks(paths: Paths, statuses: readonly Status[]): Promise<Listing> {
  const names = await listNames(paths, statuses);
  const files: { path: string; status: Status }[] = [];
  for (const [id, found] of names) for (const status of found) files.push({ path: paths.taskFile(status, id), status });
  const byId = new Map<string, StoredTask>();
  const invalid: InvalidFile[] = [];
  await forEachLimit(files, 64, async ({ path, status }) => {
    try {
      const stored = await readTaskFileSettled(path);
      const seen = byId.get(stored.task.id);
      if (!seen || byNewest(stored, seen) < 0) byId.set(stored.task.id, stored);
    } catch (err) {
      if (isGone(err)) return; // moved meanwhile: its new copy is listed
      invalid.push({ path, status, message: describeError(err) });
    }
  });
  const tasks = [...byId.values()].sort(
    (a, b) => compareText(a.task.createdAt, b.task.createdAt) || compareText(a.task.id, b.task.id),
  );
  return { tasks, invalid: invalid.sort((a, b) => compareText(a.path, b.path)) };
}

// --- internal ---

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if (hasCode(err, 'ENOENT')) return [];
    throw err;
  }
}
