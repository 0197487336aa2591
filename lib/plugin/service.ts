import { toSessionKey } from '../core/spawn.js';
import type { SpawnBody, SpawnResultBody } from '../net/protocol/bodies.js';
import { HEADERS, ROUTES, spawnResultPath } from '../net/protocol/routes.js';
import type { PluginLogger, PluginService, SubagentRuntime } from './api.js';
import type { PluginSettings } from './config.js';
import { toRunKey } from './runs.js';
import { requestSocket } from './socket.js';
import { sleep, untilStopAsked } from './stop.js';
import { raceAbort, untilAborted } from './abort.js';
import { describeError } from '../core/errors.js';

/** What a wait on the run yields when the daemon asked to end it. */
const STOP = Symbol('stop');

/** A spawn as `GET /v1/spawns/wait` hands it out (the fields the plugin uses). */
export type Spawn = Pick<SpawnBody, 'id' | 'taskId' | 'agent' | 'sessionId' | 'prompt'>;

/** What the plugin posts to `POST /v1/spawns/{id}/result`. */
export type SpawnOutcome = SpawnResultBody;

/** Options of `createSpawnService`. */
export interface SpawnServiceOptions {
  settings: Pick<PluginSettings, 'socket' | 'dryRun' | 'maxConcurrentDispatches' | 'retryMaxMs' | 'runTimeoutMs'>;
  /** The gateway's subagent runtime, read when a spawn arrives (never during `register`). */
  subagent: () => SubagentRuntime;
  logger: PluginLogger;
  /** Sent as `x-svc-plugin`; the daemon lists attached plugins by it. */
  pluginId: string;
  /** The svc tools, added to each spawned run's tool surface. */
  toolNames: readonly string[];
  /** First wait after a failed long-poll (doubles up to `retryMaxMs`); default 250 ms. */
  retryMinMs?: number;
  /** Bound of one `waitForRun` call; the plugin waits again until the run ends. Default 60 s. */
  waitSliceMs?: number;
  now?: () => number;
}

/**
 * The spawn service: holds the daemon's `GET /v1/spawns/wait` long-poll and fulfils each spawn in a
 * gateway session (`subagent.run`, then `waitForRun`), then posts the result. Spawns run
 * concurrently up to `maxConcurrentDispatches`. `stop` aborts the poll and the waits and leaves
 * the sessions running. A daemon that is down is retried with backoff and logged once.
 */
export function createSpawnService(options: SpawnServiceOptions): PluginService & { active(): number } {
  const now = options.now ?? Date.now;
  const running = new Set<Promise<void>>();
  let stopper: AbortController | null = null;
  let loop: Promise<void> | null = null;

  async function pollForever(signal: AbortSignal): Promise<void> {
    const retryMin = options.retryMinMs ?? 250;
    let delay = retryMin;
    let down = false;
    const aborted = untilAborted(signal);
    while (!signal.aborted) {
      if (running.size >= options.settings.maxConcurrentDispatches) {
        await Promise.race([...running, aborted]);
        continue;
      }
      const reply = await requestSocket(options.settings.socket, ROUTES.spawnWait, {
        headers: { [HEADERS.plugin]: options.pluginId },
        timeoutMs: 90_000,
        signal,
      }).catch((err: unknown) => err as Error);
      if (signal.aborted) return;
      const failure =
        reply instanceof Error
          ? withHint(reply)
          : reply.status >= 500 || reply.status === 429
            ? `the daemon answered HTTP ${reply.status}` +
              `${reply.status === 429 ? ' (too many spawn long-polls held)' : ''}`
            : null;
      if (failure) {
        if (!down) options.logger.warn(`svc: ${failure} Spawns wait until it is back; retrying with backoff.`);
        down = true;
        await sleep(delay, signal);
        delay = Math.min(delay * 2, options.settings.retryMaxMs);
        continue;
      }
      if (down) options.logger.info('svc: the daemon answers again; taking spawns.');
      down = false;
      delay = retryMin;
      if (reply instanceof Error || reply.status !== 200) continue;
      track(fulfil(reply.body as Spawn, signal));
    }
  }

  function track(work: Promise<void>): void {
    running.add(work);
    void work.finally(() => running.delete(work));
  }

  async function fulfil(spawn: Spawn, signal: AbortSignal): Promise<void> {
    const outcome = await runSpawn(spawn, signal).catch(
      (err: unknown): SpawnOutcome => ({ ok: false, reason: 'spawn_failed', error: messageOf(err) }),
    );
    if (!outcome) return; // stopped while the run goes on: the daemon learns its end from agent_end or the lease
    await postResult(spawn.id, outcome);
  }

  async function runSpawn(spawn: Spawn, signal: AbortSignal): Promise<SpawnOutcome | null> {
    const wanted = toSessionKey(spawn.agent, spawn.taskId);
    const idempotencyKey = toRunKey(spawn.id);
    const subagent = options.subagent();
    const started = await raceAbort(
      subagent.run({
        sessionKey: wanted,
        message: spawn.prompt,
        deliver: false,
        idempotencyKey,
        toolsAlsoAllow: [...options.toolNames],
      }),
      signal,
    );
    if (!started) return null;
    const sessionKey = started.sessionKey ?? wanted;
    options.logger.info(`svc: task ${spawn.taskId} runs in session ${sessionKey} (run ${started.runId}).`);
    const ended = new AbortController();
    const stopAsked = untilStopAsked(options.settings.socket, spawn.id, AbortSignal.any([signal, ended.signal])).then(
      (stop) => (stop ? STOP : new Promise<never>(() => undefined)),
    );
    try {
      return await waitForEnd(spawn, { sessionKey, runId: started.runId, stopAsked }, signal);
    } finally {
      ended.abort();
    }
  }

  /**
   * Waits until the run ends, outlives its timeout, or the daemon asks to end it (then the gateway session is deleted,
   * which aborts the run).
   */
  async function waitForEnd(
    spawn: Spawn,
    { sessionKey, runId, stopAsked }: { sessionKey: string; runId: string; stopAsked: Promise<typeof STOP> },
    signal: AbortSignal,
  ): Promise<SpawnOutcome | null> {
    const subagent = options.subagent();
    const deadline = now() + options.settings.runTimeoutMs;
    for (;;) {
      const left = deadline - now();
      if (left <= 0)
        return {
          ok: false,
          sessionKey,
          reason: 'run_timeout',
          error: `The run of ${spawn.taskId} did not end within ${options.settings.runTimeoutMs} ms.`,
        };
      const waited = await raceAbort(
        Promise.race([
          subagent.waitForRun({ runId, timeoutMs: Math.min(options.waitSliceMs ?? 60_000, left) }),
          stopAsked,
        ]),
        signal,
      );
      if (!waited) return null;
      if (waited === STOP) return await stopRun(spawn, sessionKey);
      if (waited.status === 'ok') return { ok: true, sessionKey };
      if (waited.retryableTransportError) {
        await sleep(1000, signal);
        continue;
      }
      if (waited.status === 'error' || (waited.status === 'timeout' && waited.timeoutPhase)) {
        return {
          ok: false,
          sessionKey,
          reason: waited.status === 'error' ? 'run_failed' : 'run_timeout',
          error: waited.error ?? `The run ended with ${waited.status}.`,
        };
      }
    }
  }

  async function stopRun(spawn: Spawn, sessionKey: string): Promise<SpawnOutcome> {
    const { deleteSession } = options.subagent();
    const deleted = !deleteSession
      ? 'this gateway has no subagent.deleteSession'
      : await deleteSession({ sessionKey, deleteTranscript: false }).then(
          () => null,
          (err: unknown) => messageOf(err),
        );
    options.logger.info(
      `svc: the daemon ended the run of ${spawn.taskId} (its lease expired or it was cancelled); ` +
        (deleted
          ? `deleting session ${sessionKey} failed: ${deleted}`
          : `session ${sessionKey} deleted, which aborts its run`) +
        `.`,
    );
    return {
      ok: false,
      sessionKey,
      reason: 'run_stopped',
      error: `The svc daemon ended this run${deleted ? `; the gateway session could not be deleted: ${deleted}` : ''}.`,
    };
  }

  async function postResult(id: string, outcome: SpawnOutcome): Promise<void> {
    const res = await requestSocket(options.settings.socket, {
      method: ROUTES.spawnResult.method,
      path: spawnResultPath(id),
      body: outcome,
    }).catch((err: unknown) => err as Error);
    if (res instanceof Error) options.logger.warn(`svc: could not post the result of spawn ${id}: ${res.message}`);
    else if (res.status !== 200)
      options.logger.warn(`svc: the daemon refused the result of spawn ${id} (HTTP ${res.status}).`);
  }

  return {
    id: 'svc-spawns',
    start() {
      if (options.settings.dryRun) {
        options.logger.info(
          'svc: dry run: the plugin takes no spawns (set ' +
            'plugins.entries.svc.config.dryRun to false to run tasks here).',
        );
        return;
      }
      if (loop) return;
      stopper = new AbortController();
      loop = pollForever(stopper.signal);
    },
    async stop() {
      stopper?.abort();
      await loop;
      await Promise.all([...running]);
      loop = null;
      stopper = null;
    },
    active: () => running.size,
  };
}

// --- internal ---

function withHint(err: Error): string {
  const hint = (err as { hint?: string }).hint;
  return hint ? `${err.message} ${hint}` : err.message;
}

function messageOf(err: unknown): string {
  return describeError(err);
}
