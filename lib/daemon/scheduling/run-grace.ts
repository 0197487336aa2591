/** What a run that handed its task on is given: until when it may exit by itself. */
export interface Finishing {
  taskId: string;
  sessionId: string;
  /** Epoch ms: past this the run is ended as any other (`runExitGraceMs` after it handed the task on). */
  until: number;
}

/** Options of `createRunGrace`. */
export interface RunGraceOptions {
  /** `aof.daemon.runExitGraceMs`. */
  graceMs: () => number;
  /** A run that handed its task on is still alive at the end of its grace period. */
  onOverdue: (finishing: Finishing) => void;
  now?: () => number;
}

/** Runs that handed their task on, let to finish (docs/scheduler.md, "One run per task"). */
export type RunGrace = ReturnType<typeof createRunGrace>;

/**
 * Keeps which runs handed their task on (completed it, blocked it, moved it on) and so are not
 * ended at once: such a run is answered and given `runExitGraceMs` to exit by itself. While a call
 * that may hand a task on is under way, every run of that task is spared too, so a tick that sees
 * the task move before the call returns does not end the run making it.
 */
export function createRunGrace(options: RunGraceOptions) {
  const now = options.now ?? Date.now;
  const handing = new Map<string, number>(); // calls under way, by task
  const finishing = new Map<string, Finishing & { timer: NodeJS.Timeout }>(); // by session

  return {
    /**
     * A call that may hand `taskId` on starts; settle it with the session that handed the task on, or null when none
     * did.
     */
    begin(taskId: string): (sessionId: string | null) => Finishing | null {
      handing.set(taskId, (handing.get(taskId) ?? 0) + 1);
      let settled = false;
      return (sessionId) => {
        if (settled) return null;
        settled = true;
        const left = (handing.get(taskId) ?? 1) - 1;
        if (left > 0) handing.set(taskId, left);
        else handing.delete(taskId);
        return sessionId ? start(taskId, sessionId) : null;
      };
    },
    /** Whether the run of `sessionId` (of `taskId`) is left to finish by itself for now. */
    spares(taskId: string, sessionId: string): boolean {
      if (handing.has(taskId)) return true;
      const found = finishing.get(sessionId);
      return found !== undefined && found.until > now();
    },
    /** The grace of a run that handed its task on, or undefined. */
    of: (sessionId: string): Finishing | undefined => finishing.get(sessionId),
    /** The run of `sessionId` is gone (or is ended): nothing more to wait for. */
    forget(sessionId: string): void {
      clearTimeout(finishing.get(sessionId)?.timer);
      finishing.delete(sessionId);
    },
    close(): void {
      for (const entry of finishing.values()) clearTimeout(entry.timer);
      finishing.clear();
    },
  };

  function start(taskId: string, sessionId: string): Finishing {
    clearTimeout(finishing.get(sessionId)?.timer);
    const graceMs = options.graceMs();
    const timer = setTimeout(() => {
      const entry = finishing.get(sessionId);
      if (!entry) return;
      finishing.delete(sessionId);
      options.onOverdue({ taskId, sessionId, until: entry.until });
    }, graceMs);
    timer.unref();
    const entry = { taskId, sessionId, until: now() + graceMs, timer };
    finishing.set(sessionId, entry);
    return { taskId, sessionId, until: entry.until };
  }
}
