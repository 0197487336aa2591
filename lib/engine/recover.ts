import { readdir, readFile, unlink } from 'node:fs/promises';
import { toIdDate } from '../core/ids.js';
import { requeueUnspawned } from '../store/changes/requeue.js';
import { readEvents, type EventInput } from '../store/events/log.js';
import type { Store } from '../store/commit/store.js';
import type { StoredTask } from '../store/disk/task-file.js';
import type { SpawnMarker } from './run.js';

/** Options of `recoverSpawns`. */
export interface RecoverOptions {
  store: Store;
  log: (line: string) => void;
  /** The agent sessions still running on this host (a spawn handed over just before a crash). */
  running: () => Set<string>;
}

/** What one pass over the markers did: the tasks sent back to ready, and the markers to try again. */
export interface RecoverPass {
  requeued: string[];
  /**
   * Markers whose task could not be requeued yet (its lock is still held, e.g. by the dead daemon until it counts as
   * stale).
   */
  pending: string[];
}

/**
 * At a daemon start, settles every spawn marker a previous daemon left in `data/spawns/`. A marker
 * is written before its lease is committed and removed once the adapter has the spawn, so one
 * left behind means the daemon died in between. If the task is in progress under that lease and
 * no process runs its session, the spawn never reached an agent: the task goes back to ready at
 * once (not after its 30-minute lease), and if the crash also lost the dispatch's events, they
 * are written first, so the log has each transition once. `names` limits the pass to those
 * markers (a retry of the pending ones).
 */
export async function recoverSpawns(options: RecoverOptions, names?: readonly string[]): Promise<RecoverPass> {
  const { store, log } = options;
  const pass: RecoverPass = { requeued: [], pending: [] };
  let running: Set<string> | null = null;
  for (const name of names ?? (await readdir(store.paths.spawns).catch(() => [] as string[]))) {
    const [taskId = '', sessionId = ''] = name.split('@');
    const file = `${store.paths.spawns}/${name}`;
    const current = await store.get(taskId).catch(() => null);
    if (current?.status === 'in-progress' && current.task.lease?.sessionId === sessionId) {
      running ??= options.running();
      if (running.has(sessionId)) {
        log(`${taskId}: its agent (session ${sessionId}) still runs from before the restart; left to it`);
      } else {
        const done = await requeue(store, current, { sessionId, marker: await readMarker(file) }).catch(
          (err: unknown) => err as Error,
        );
        if (done instanceof Error) {
          log(`requeue of ${taskId} (session ${sessionId}) failed, retrying: ${done.message}`);
          pass.pending.push(name);
          continue;
        }
        if (done) {
          pass.requeued.push(taskId);
          log(`requeued ${taskId}: its spawn (session ${sessionId}) was never handed to an adapter`);
        }
      }
    }
    await unlink(file).catch(() => undefined);
  }
  return pass;
}

/**
 * Runs `recoverSpawns` now, then again on the pending markers every `retryMs` (1 s) until none is
 * left. Resolves after the first pass; `close` stops the retries.
 */
export async function startSpawnRecovery(
  options: RecoverOptions & { retryMs?: number; onRequeued?: (ids: string[]) => void },
): Promise<{ close(): void }> {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const run = async (names?: readonly string[]) => {
    const pass = await recoverSpawns(options, names);
    if (pass.requeued.length) options.onRequeued?.(pass.requeued);
    if (pass.pending.length && !closed) timer = setTimeout(() => void run(pass.pending), options.retryMs ?? 1000);
  };
  await run();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

// --- internal ---

/** Sends a task leased by `run.sessionId` back to ready; `run.marker`: its spawn marker, when one was left. */
async function requeue(
  store: Store,
  leased: StoredTask,
  run: { sessionId: string; marker: SpawnMarker | null },
): Promise<boolean> {
  const { sessionId, marker } = run;
  const taskId = leased.task.id;
  if (!(await isDispatchLogged(store, leased, sessionId))) {
    const agent = leased.task.lease?.agent ?? marker?.agent ?? 'unknown';
    const lost: EventInput[] = [
      {
        type: 'task.transitioned',
        taskId,
        actor: 'scheduler',
        payload: { from: 'ready', to: 'in-progress', reason: `dispatched to ${agent}` },
      },
      {
        type: 'task.dispatched',
        taskId,
        actor: 'scheduler',
        payload: { agent, adapter: marker?.adapter ?? 'unknown', sessionId, recovered: true },
      },
    ];
    await store.events.record(new Date(leased.task.lastTransitionAt), lost);
  }
  return requeueUnspawned(store, taskId, sessionId);
}

/**
 * Whether the `task.dispatched` of this lease reached the log (it is appended after the commit, so a crash can lose
 * it).
 */
async function isDispatchLogged(store: Store, leased: StoredTask, sessionId: string): Promise<boolean> {
  const day = toIdDate(new Date(leased.task.lastTransitionAt));
  const events = await readEvents(store.paths.root, {
    taskId: leased.task.id,
    type: 'task.dispatched',
    from: day,
  }).catch(() => []);
  return events.some((event) => event.payload.sessionId === sessionId);
}

async function readMarker(file: string): Promise<SpawnMarker | null> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<SpawnMarker>;
    return typeof parsed.agent === 'string' && typeof parsed.adapter === 'string' ? (parsed as SpawnMarker) : null;
  } catch {
    return null; // an empty marker (an older daemon) or one cut short
  }
}
