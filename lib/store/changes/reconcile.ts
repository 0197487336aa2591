import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { hasCode, isGone, toError } from '../../core/errors.js';
import { isStatus, STATUSES, type Status } from '../../core/status.js';
import { toOneLine } from '../../core/text.js';
import { byNewest } from '../commit/protocol.js';
import { isTempName, toTaskId, type Paths } from '../disk/paths.js';
import { readTaskFileSettled } from '../disk/settled-read.js';
import type { StoredTask } from '../disk/task-file.js';

/** Kinds of problem, in the order they are applied; `invalid` and `stray` are only reported. */
export const RECONCILE_KINDS = ['missing', 'temporary', 'duplicate', 'heal', 'invalid', 'stray'] as const;
export type ReconcileKind = (typeof RECONCILE_KINDS)[number];

/** One planned action; `line` says it in words, with paths relative to the root. */
export type ReconcileAction =
  | { kind: 'missing'; path: string; line: string }
  | { kind: 'temporary'; id: string; path: string; line: string }
  | { kind: 'duplicate'; id: string; path: string; losers: string[]; line: string }
  | { kind: 'heal'; id: string; path: string; from: Status; to: Status; line: string }
  | { kind: 'invalid'; path: string; message: string; line: string }
  | { kind: 'stray'; path: string; line: string };

/** What reconcile would do to a tree, as seen at `now`. */
export interface ReconcilePlan {
  root: string;
  now: Date;
  actions: ReconcileAction[];
}

/** True for the kinds `applyReconcile` fixes (the others need a human). */
export function isFixable(kind: ReconcileKind): boolean {
  return kind !== 'invalid' && kind !== 'stray';
}

/**
 * Plans reconcile (docs/architecture.md, "Reconcile"): heal frontmatter that disagrees with its directory, resolve
 * an id found in two directories, remove temporaries, create missing status directories, and
 * report invalid and stray files. Reads only; the plan is re-checked under each lock when applied.
 */
export async function planReconcile(paths: Paths, now: Date): Promise<ReconcilePlan> {
  const scan = await scanTree(paths);
  const actions: ReconcileAction[] = [...scan.temps, ...scan.strays];
  const copies = await readCopies(scan.files);
  for (const [id, found] of copies) actions.push(...planTask(paths, id, found));
  const order = (a: ReconcileAction) => RECONCILE_KINDS.indexOf(a.kind);
  actions.sort((a, b) => order(a) - order(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { root: paths.root, now, actions: [...(await planMissing(paths)), ...actions] };
}

/** One copy of a task on disk: read, or the error that kept it from being read. */
export type Copy = StoredTask | { path: string; status: Status; error: Error };

/** Reads every file given, 64 at a time, into the copies of each id (a file gone meanwhile is left out). */
export async function readCopies(
  files: readonly { id: string; path: string; status: Status }[],
): Promise<Map<string, Copy[]>> {
  const out = new Map<string, Copy[]>();
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const { id, path, status } = files[next++]!;
      const copy = await readTaskFileSettled(path).catch((err: unknown): Copy | null =>
        isGone(err) ? null : { path, status, error: toError(err) },
      );
      if (!copy) continue;
      const list = out.get(id);
      if (list) list.push(copy);
      else out.set(id, [copy]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(64, files.length) }, worker));
  return out;
}

/** True for a copy that was read. */
export const isStored = (copy: Copy): copy is StoredTask => !('error' in copy);

// --- internal ---

interface Scan {
  files: { id: string; path: string; status: Status }[];
  temps: ReconcileAction[];
  strays: ReconcileAction[];
}

function planTask(paths: Paths, id: string, found: Copy[]): ReconcileAction[] {
  const rel = (path: string) => relative(paths.root, path);
  const bad = found.filter((copy): copy is Exclude<Copy, StoredTask> => !isStored(copy));
  // Never move or rewrite around a file that does not parse: a human may be mid-edit.
  if (bad.length) return bad.map(({ path, error }) => toInvalid(rel(path), path, error.message));
  const valid = (found as StoredTask[]).sort(byNewest);
  const winner = valid[0]!;
  const out: ReconcileAction[] = [];
  if (valid.length > 1) {
    const losers = valid.slice(1).map((copy) => copy.path);
    const line =
      `duplicate ${id}: keep ${rel(winner.path)} (updatedAt ${winner.task.updatedAt}), ` +
      `move ${losers.map(rel).join(', ')} to ${rel(paths.conflicts)}/`;
    out.push({ kind: 'duplicate', id, path: winner.path, losers, line });
  }
  if (winner.task.status !== winner.status) {
    const line =
      `heal ${id}: frontmatter says ${winner.task.status}, ` + `directory says ${winner.status} (${rel(winner.path)})`;
    out.push({ kind: 'heal', id, path: winner.path, from: winner.task.status, to: winner.status, line });
  }
  return out;
}

function toInvalid(rel: string, path: string, message: string): ReconcileAction {
  const reason = message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message;
  return { kind: 'invalid', path, message, line: `invalid ${rel}: ${toOneLine(reason)}` };
}

async function planMissing(paths: Paths): Promise<ReconcileAction[]> {
  const out: ReconcileAction[] = [];
  for (const status of STATUSES) {
    const dir = paths.statusDir(status);
    const rel = relative(paths.root, dir);
    if (!(await exists(dir)))
      out.push({ kind: 'missing', path: dir, line: `create ${rel}/ (missing status directory)` });
    else if (!(await exists(join(dir, '.gitkeep'))))
      out.push({ kind: 'missing', path: join(dir, '.gitkeep'), line: `create ${rel}/.gitkeep (missing)` });
  }
  return out;
}

/** One walk of `tasks/` (dot entries and `tasks/archive/` skipped): task files, temporaries, and stray `.md` files. */
async function scanTree(paths: Paths): Promise<Scan> {
  const scan: Scan = { files: [], temps: [], strays: [] };
  const walk = async (dir: string, depth: number): Promise<void> => {
    for (const entry of await readdirOrEmpty(dir)) {
      const path = join(dir, entry.name);
      if (entry.name.startsWith('.') || path === paths.archive) continue;
      const rel = relative(paths.root, path);
      const status = depth === 1 ? relative(paths.tasks, dir) : '';
      // In a status directory every entry but a plain subdirectory is classified: a directory, FIFO or
      // symlink named <id>.md is read as a task and so reported as what it is.
      if (isStatus(status) && !(entry.isDirectory() && !toTaskId(entry.name))) {
        classify(scan, { name: entry.name, path, rel, status });
      } else if (entry.isDirectory()) {
        if (depth < 8) await walk(path, depth + 1);
      } else if (entry.name.endsWith('.md')) {
        scan.strays.push({
          kind: 'stray',
          path,
          line:
            `stray ${rel}: not in a status directory, so not read as ` +
            `a task (move it into tasks/<status>/ or out of tasks/)`,
        });
      }
    }
  };
  await walk(paths.tasks, 0);
  return scan;
}

function classify(scan: Scan, file: { name: string; path: string; rel: string; status: Status }): void {
  const id = toTaskId(file.name);
  if (id) scan.files.push({ id, path: file.path, status: file.status });
  else if (isTempName(file.name)) {
    const tempId = file.name.slice(0, file.name.indexOf('.md.'));
    scan.temps.push({ kind: 'temporary', id: tempId, path: file.path, line: `remove temporary file ${file.rel}` });
  } else if (file.name.endsWith('.md')) {
    scan.strays.push(
      toInvalid(
        file.rel,
        file.path,
        'the file name is not <id>.md with a valid id (letters, digits, ".", "_", "-"), so it is not read as a task',
      ),
    );
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (err: unknown) => (hasCode(err, 'ENOENT') ? false : Promise.reject(err)),
  );
}

async function readdirOrEmpty(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (hasCode(err, 'ENOENT') || hasCode(err, 'ENOTDIR')) return [];
    throw err;
  }
}
