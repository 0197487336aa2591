import { requestSocket } from './socket.js';
import type { SpawnStopBody } from '../net/protocol/bodies.js';
import { ROUTES, spawnStopPath } from '../net/protocol/routes.js';

/** Pauses between two tries of a stop wait that failed (the daemon is down or restarting). */
const RETRY_MS = [250, 1000, 5000, 15_000];

/**
 * Resolves true once the daemon asks to end the run of spawn `id` (`GET /v1/spawns/{id}/stop`: its
 * lease expired or its task was cancelled), false when the daemon does not know the spawn (a
 * restarted daemon: the run goes on under its lease) or `signal` aborts (the run ended).
 */
export async function untilStopAsked(socket: string, id: string, signal: AbortSignal): Promise<boolean> {
  for (let failures = 0; !signal.aborted; ) {
    const reply = await requestSocket(
      socket,
      { method: ROUTES.spawnStop.method, path: spawnStopPath(id) },
      { timeoutMs: 90_000, signal },
    ).catch(() => null);
    if (signal.aborted) return false;
    const body = reply?.status === 200 ? (reply.body as Partial<SpawnStopBody>) : null;
    if (body?.stop === true) return true;
    if (body?.known === false) return false;
    if (body) {
      failures = 0;
      continue;
    }
    await sleep(RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]!, signal);
  }
  return false;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
