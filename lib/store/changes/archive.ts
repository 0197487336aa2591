import { lstatSync } from 'node:fs';
import { relative } from 'node:path';
import { describeError, SvcError } from '../../core/errors.js';
import { isTerminal, type Status } from '../../core/status.js';
import { parseTask, type Lease } from '../../core/task.js';
import { createExclusive, ensureDir, unlinkDurable } from '../../fs/atomic.js';
import { MAX_FILE_BYTES, parseFrontmatter } from '../../fs/frontmatter.js';
import { readRegularFileSync } from '../../fs/regular-file.js';
import { withLock } from '../../fs/lock/lock.js';
import { findTaskFiles } from '../commit/copies.js';
import { isLeaseLive } from './lease.js';
import { toArchiveMonth } from '../disk/paths.js';
import type { Store } from '../commit/store.js';

/** A done or cancelled task to archive, and where it goes (`tasks/archive/<yyyy-mm>/<id>.md`). */
export interface ArchiveMove {
  id: string;
  title: string;
  status: Status;
  lastTransitionAt: string;
  /** The target, relative to the root. */
  to: string;
}

/** A task old enough but not archived, and why (`kept`: a reason; `refused`: an error). */
export interface ArchiveSkip {
  id: string;
  code: string;
  reason: string;
}

/** What `svc archive` does (or, with `--dry-run`, would do). */
export interface ArchiveReport {
  before: string;
  moved: ArchiveMove[];
  kept: ArchiveSkip[];
  refused: ArchiveSkip[];
}

/**
 * Moves done and cancelled tasks whose last transition is before `before` to the archive, each
 * under its lock (docs/command-line.md, "Archive"). Kept: a task some open task depends on (its dependent would
 * wait for it forever). Refused: a task with a live lease, or one that changed meanwhile. An
 * archived task keeps its events; each move adds `task.archived`.
 */
export async function archiveTasks(
  store: Store,
  options: { before: Date; actor: string; dryRun?: boolean },
): Promise<ArchiveReport> {
  const { tasks } = await store.list();
  const needed = new Map<string, string>();
  for (const { task, status } of tasks)
    if (!isTerminal(status)) for (const dep of task.dependsOn) needed.set(dep, task.id);
  const report: ArchiveReport = { before: options.before.toISOString(), moved: [], kept: [], refused: [] };
  for (const { task, status } of tasks) {
    if (!isTerminal(status) || !(Date.parse(task.lastTransitionAt) < options.before.getTime())) continue;
    const month = toArchiveMonth(task.lastTransitionAt)!;
    const move = {
      id: task.id,
      title: task.title,
      status,
      lastTransitionAt: task.lastTransitionAt,
      to: relative(store.paths.root, store.paths.archiveFile(month, task.id)),
    };
    const dependent = needed.get(task.id);
    if (isLeaseLive(task, store.clock())) report.refused.push(toSkip(task.id, toLeaseHeld(task.id, task.lease)));
    else if (dependent)
      report.kept.push({ id: task.id, code: 'dependency', reason: `${dependent} (not done) depends on it` });
    else if (options.dryRun) report.moved.push(move);
    else
      await archiveOne(store, move, options).then(
        () => report.moved.push(move),
        (err: unknown) => report.refused.push(toSkip(task.id, err)),
      );
  }
  return report;
}

// --- internal ---

/** Under the task's lock: re-read, re-check, write the archive copy durably, then unlink the original if unchanged. */
async function archiveOne(store: Store, move: ArchiveMove, options: { actor: string }): Promise<void> {
  const { paths } = store;
  const now = store.clock();
  const taskLock = { what: move.id, waitMs: 5000, fence: true };
  await withLock(paths.lockFile(move.id), taskLock, async (lock) => {
    const found = await findTaskFiles(paths, move.id);
    if (found.length !== 1)
      throw new SvcError(
        'validation_error',
        `${move.id} is in ${found.length} status directories.`,
        'Run `svc doctor --fix`, then archive again.',
      );
    const path = found[0]!;
    const { text, stat } = readRegularFileSync(path, MAX_FILE_BYTES);
    const task = parseTask(parseFrontmatter(text, path).data, path);
    const status = relative(paths.tasks, path).split('/')[0] as Status;
    if (!isTerminal(status))
      throw new SvcError(
        'invalid_transition',
        `${move.id} is in ${status} now: only done and cancelled tasks are archived.`,
        'Nothing was moved.',
      );
    if (isLeaseLive(task, now)) throw toLeaseHeld(move.id, task.lease);
    if (task.lastTransitionAt !== move.lastTransitionAt)
      throw new SvcError(
        'locked',
        `${move.id} moved again at ${task.lastTransitionAt} while the archive ran.`,
        'Archive again.',
      );
    const month = toArchiveMonth(task.lastTransitionAt)!;
    const target = paths.archiveFile(month, move.id);
    await ensureDir(paths.archiveDir(month));
    // A copy already there is what a run that crashed before the unlink left: identical, it is ours.
    if (!(await createExclusive(target, text)) && readRegularFileSync(target, MAX_FILE_BYTES).text !== text) {
      throw new SvcError(
        'validation_error',
        `${move.to} exists and differs from ${move.id} in ${status}.`,
        `Compare the two files and remove one (svc doctor does not look into ${relative(paths.root, paths.archive)}/).`,
      );
    }
    lock.assertHeld();
    const after = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    if (!after || after.ino !== stat.ino || after.mtimeNs !== stat.mtimeNs || after.size !== stat.size) {
      await unlinkDurable(target);
      throw new SvcError('locked', `${move.id} changed while it was archived.`, 'Archive again.');
    }
    await unlinkDurable(path);
  });
  await store.events.record(now, [
    { type: 'task.archived', taskId: move.id, actor: options.actor, payload: { from: move.status, to: move.to } },
  ]);
}

function toLeaseHeld(id: string, lease: Lease): SvcError {
  return new SvcError(
    'lease_held',
    `Task has active lease: ${id} is held by agent ${lease.agent} (session ` +
      `${lease.sessionId}) until ${lease.expiresAt}; a task under a live lease is not archived.`,
    'Wait until the lease ends or expires, then archive again.',
  );
}

function toSkip(id: string, err: unknown): ArchiveSkip {
  const error = err instanceof SvcError ? err : new SvcError('internal', describeError(err));
  return { id, code: error.code, reason: `${error.message}${error.hint ? ` ${error.hint}` : ''}` };
}
