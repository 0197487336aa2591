import type { CommandAdapter } from '../../adapters/command.js';
import type { Run } from '../../adapters/runs.js';
import { requeueOrphanedRun } from '../../store/changes/requeue.js';
import type { Store } from '../../store/commit/store.js';
import { createRunGrace } from './run-grace.js';
import { describeError } from '../../core/errors.js';

/** Options of `createRunEnder`. */
export interface RunEnderOptions {
  store: Store;
  command: CommandAdapter;
  /**
   * Plugin runs: asks the plugin to end the gateway runs of a task (sessions other than `keep`); returns their spawn
   * ids.
   */
  stopPluginRuns?: (taskId: string, keep?: string) => string[];
  /** Plugin runs of a task whose end the plugin has not reported yet, and whether they were asked to end. */
  pluginRuns?: (taskId: string) => { id: string; stopping: boolean }[];
  /**
   * Standalone runs: cancels the gateway runs of a task this daemon spawned there (null when it spawned none); resolves
   * with what it did.
   */
  stopStandaloneRuns?: (taskId: string) => Promise<string> | null;
  stopGraceMs: () => number;
  /** How long a run that handed its task on may take to exit by itself (`runExitGraceMs`). */
  exitGraceMs: () => number;
  log: (line: string) => void;
  /** Asks for a tick (a run is gone: its task may be dispatched again). */
  schedule: () => void;
  /** The task's status and lease session as the index has them (for `sweep`). */
  taskOf?: (taskId: string) => { status: string; sessionId?: string | undefined } | undefined;
  /** Tells the index which tasks the ender committed. */
  onCommitted: (ids: readonly string[]) => void | Promise<void>;
}

/** One run per task (docs/scheduler.md): the daemon's side of ending runs. */
export type RunEnder = ReturnType<typeof createRunEnder>;

/** Which runs `end` leaves alone. */
export interface EndOptions {
  /** The session of the task's current lease. */
  keep?: string | undefined;
  /** Also the runs that handed the task on and are within their grace period (a cancel). */
  atOnce?: boolean;
}

/** A session that moved its task out of its lease (completed, blocked, moved on), and where to. */
export interface HandedOn {
  sessionId: string;
  status: string;
}

/**
 * Ends the runs of a task before it is dispatched again (lease expired, cancelled, back in ready),
 * says what of them is still alive (the `previous-run-ending` hold) and, at a daemon start, settles
 * the runs an earlier daemon recorded in `data/runs/`. A local or plugin run that handed its task
 * on is not ended at once: it has `runExitGraceMs` to exit by itself (a cancel ends it at once).
 */
export function createRunEnder(options: RunEnderOptions) {
  const { store, command, log } = options;
  const cancelling = new Map<string, Promise<void>>(); // standalone runs being cancelled, by task
  const grace = createRunGrace({
    graceMs: options.exitGraceMs,
    onOverdue: ({ taskId, sessionId }) =>
      void ender.endUnlessCurrent(
        taskId,
        `it handed its task on ${options.exitGraceMs()} ms ago and ` +
          `its run (session ${sessionId}) has not exited (runExitGraceMs)`,
      ),
  });

  const ender = {
    /**
     * Starts ending every run of `taskId` but `keep`'s and those let to finish (SIGTERM to local agents, a stop to
     * gateway runs); logs it once per run.
     */
    end(taskId: string, why: string, how: EndOptions = {}): void {
      const spare = how.atOnce ? undefined : (run: { sessionId: string }) => grace.spares(taskId, run.sessionId);
      const fresh = command.runs.of(taskId).filter((run) => run.state !== 'ending');
      for (const run of command.runs.end(taskId, { keep: how.keep, spare })) {
        grace.forget(run.sessionId);
        if (fresh.includes(run))
          log(
            `${taskId}: ending its local agent (session ${run.sessionId}, pid ${run.pid}` +
              `) since ${why}: SIGTERM sent, SIGKILL after ${options.stopGraceMs()} ms`,
          );
      }
      const plugin = options.pluginRuns?.(taskId) ?? [];
      if (!spare || !plugin.some((run) => !run.stopping && spare({ sessionId: run.id }))) {
        for (const id of options.stopPluginRuns?.(taskId, how.keep) ?? [])
          log(`${taskId}: asked the plugin to end its gateway run (spawn ${id}) since ${why}`);
      }
      // The gateway's list does not tell one session's standalone run from another: none is cancelled while one is
      // kept.
      const standalone = cancelling.has(taskId) || how.keep !== undefined ? null : options.stopStandaloneRuns?.(taskId);
      if (standalone) {
        const settled = standalone
          .then(
            (done) => log(`${taskId}: cancelled its standalone gateway runs since ${why}: ${done}`),
            (err: unknown) =>
              log(
                `${taskId}: could not cancel its standalone gateway runs ` +
                  `(${describeError(err)}); the gateway may still run it`,
              ),
          )
          .finally(() => {
            cancelling.delete(taskId);
            return options.schedule();
          });
        cancelling.set(taskId, settled);
      }
    },
    /**
     * `end`, but judged on the task file read afresh, not on the plan or the index that asked for
     * it: a plan made a moment before this daemon dispatched the task, or an index fed a stale view
     * of a network tree, must not end the run that holds the task's current lease.
     */
    async endUnlessCurrent(taskId: string, why: string, how: Pick<EndOptions, 'atOnce'> = {}): Promise<void> {
      const current = await store.get(taskId).catch(() => null);
      const session = current?.status === 'in-progress' ? current.task.lease?.sessionId : undefined;
      ender.end(taskId, why, { ...how, keep: session });
    },
    /**
     * A call that may hand `taskId` on (a completion, a block, a status move by its holder) starts:
     * the task's runs are spared until it settles; settled with the session whose lease it ended,
     * that run is answered and given `runExitGraceMs` to exit by itself before it is ended.
     */
    handOn(taskId: string): (handed: HandedOn | null) => void {
      const settle = grace.begin(taskId);
      return (handed) => {
        const runs = [
          ...command.runs.of(taskId).filter((run) => run.state !== 'ending'),
          ...(options.pluginRuns?.(taskId) ?? []).filter((run) => !run.stopping).map((run) => ({ sessionId: run.id })),
        ];
        const alive = handed && runs.some((run) => run.sessionId === handed.sessionId);
        const finishing = settle(alive ? handed.sessionId : null);
        if (finishing)
          log(
            `${taskId}: its run (session ${finishing.sessionId}) handed it on (now ${handed!.status}); it may ` +
              `exit by itself until ${new Date(finishing.until).toISOString()} (runExitGraceMs), then it is ended`,
          );
      };
    },
    /** What of an earlier run of `taskId` is still alive, or null. */
    describe(taskId: string): string | null {
      const local = command.runs
        .of(taskId)
        .map(
          (run) =>
            `the local agent of session ${run.sessionId} (pid ${run.pid}) ` +
            (run.state === 'ending'
              ? `got SIGTERM${run.killed ? ' and SIGKILL' : `; SIGKILL at ${new Date(run.killAt ?? 0).toISOString()}`}`
              : finishingText(run.sessionId)),
        );
      const plugin = (options.pluginRuns?.(taskId) ?? []).map(
        (run) => `the gateway run of spawn ${run.id} ${run.stopping ? 'was asked to end' : finishingText(run.id)}`,
      );
      const standalone = cancelling.has(taskId)
        ? ['its standalone gateway run is being cancelled (subagents cancel)']
        : [];
      const parts = [...local, ...plugin, ...standalone];
      return parts.length ? `${parts.join('; ')}; it is dispatched once that is over` : null;
    },
    /**
     * Ends the local runs whose task went on without them: in progress under another session (its
     * lease expired and another daemon sharing the tree dispatched it again) or cancelled; and
     * the processes an agent that exited left behind once its task is no longer its own (done).
     */
    sweep(): void {
      for (const run of command.runs.all()) {
        const task = run.state === 'ending' ? undefined : options.taskOf?.(run.taskId);
        if (task?.status === 'in-progress' && task.sessionId !== run.sessionId)
          void ender.endUnlessCurrent(run.taskId, `its task is in progress under session ${task.sessionId}`);
        else if (task?.status === 'cancelled') ender.end(run.taskId, 'it was cancelled', { atOnce: true });
        else if (task && task.status !== 'in-progress' && run.leaderExited)
          void ender.endUnlessCurrent(
            run.taskId,
            `its agent exited, leaving processes behind, and its task is ${task.status}`,
            { atOnce: true },
          ); // its grace was for the agent, now gone
      }
    },
    /** A run was confirmed gone: an adopted run whose task it still holds sends the task back to ready, uncounted. */
    gone(run: Run): void {
      grace.forget(run.sessionId);
      if (run.state === 'ending')
        log(`${run.taskId}: its local agent (session ${run.sessionId}, pid ${run.pid}) is gone`);
      if (!run.adopted) return options.schedule();
      void requeue(run).finally(options.schedule);
    },
    /**
     * At a daemon start: every run recorded under `data/runs/` whose task is no longer in progress
     * under that run's session is ended; one still holding its task is watched; a task whose run
     * is gone while it still held it goes back to ready at once, not counted as a failed dispatch.
     */
    async start(): Promise<void> {
      const { alive, gone } = command.runs.adopt();
      for (const run of alive) {
        const current = await store.get(run.taskId).catch(() => null);
        if (current?.status === 'in-progress' && current.task.lease?.sessionId === run.sessionId) {
          log(
            `${run.taskId}: its local agent (session ${run.sessionId}, pid ` +
              `${run.pid}) still runs from before the restart; watching it`,
          );
        } else {
          const where = current
            ? `its task is ${current.status}${current.status === 'in-progress' ? ' under another session' : ''}`
            : 'its task is gone';
          ender.end(run.taskId, `${where} (found at start)`, {
            keep: current?.status === 'in-progress' ? current.task.lease?.sessionId : undefined,
          });
        }
      }
      for (const run of gone) await requeue(run);
      if (gone.length) options.schedule();
    },
    /** Stops the grace timers (the daemon stops; the runs go on). */
    close(): void {
      grace.close();
    },
  };
  return ender;

  function finishingText(sessionId: string): string {
    const finishing = grace.of(sessionId);
    return finishing
      ? `handed the task on and may exit by itself until ${new Date(finishing.until).toISOString()} (runExitGraceMs)`
      : 'still runs';
  }

  async function requeue(run: Run): Promise<void> {
    const moved = await requeueOrphanedRun(store, run.taskId, run.sessionId).catch((err: unknown) => {
      log(
        `${run.taskId}: could not requeue it after its local agent (session ` +
          `${run.sessionId}) ended: ${describeError(err)}; its lease keeps it until it expires`,
      );
      return false;
    });
    if (!moved) return;
    await options.onCommitted([run.taskId]);
    log(
      `${run.taskId}: its local agent (session ${run.sessionId}, pid ${run.pid}), started by an ` +
        `earlier daemon, ended without completing: back to ready, not counted as a failed dispatch`,
    );
  }
}
