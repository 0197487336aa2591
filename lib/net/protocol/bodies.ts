import type { Status } from '../../core/status.js';
import type { SpawnRequest } from '../../core/spawn.js';

// The request and response bodies of the socket's routes (docs/daemon.md, "Routes"); the status
// body is in ./status.ts. Every failure answers `ErrorBody` with the HTTP status of its code.

/** Every failure: `{ok:false, error:{code, message, hint?}}` (a 503 of `/healthz` adds `reason`). */
export interface ErrorBody {
  ok: false;
  error: { code: string; message: string; hint?: string };
  reason?: string;
}

/** `GET /healthz` while healthy (503 with an `ErrorBody` and `reason` otherwise). */
export interface HealthzBody {
  ok: true;
}

/** `POST /v1/tool/invoke`: one call of a tool. */
export interface InvokeRequest {
  tool: string;
  params: unknown;
}

/** What `POST /v1/tool/invoke` answers on success. */
export interface InvokeResponse {
  ok: true;
  result: unknown;
}

/** One call of a batch: its params and, optionally, its request id. */
export interface BatchCall {
  params: unknown;
  requestId?: string;
}

/** `POST /v1/tool/batch`: 1 to 500 calls of one tool. */
export interface BatchRequest {
  tool: string;
  batch: BatchCall[];
}

/** One call's outcome in a batch, with the HTTP status its own request would have had. */
export type BatchResult = { status: number; replayed?: true } & ({ ok: true; result: unknown } | ErrorBody);

/** What `POST /v1/tool/batch` answers: each call's outcome in the order sent. */
export interface BatchResponse {
  ok: true;
  results: BatchResult[];
}

/** What `POST /v1/event/<name>` (202), `POST /v1/spawns/<id>/result` and `/healthz` answer on success. */
export interface OkBody {
  ok: true;
}

/** A spawn as `GET /v1/spawns/wait` hands it to a plugin (200; 204 with no body after the hold). */
export type SpawnBody = SpawnRequest;

/** What the plugin posts to `POST /v1/spawns/<id>/result` (and what the daemon's queue settles with). */
export interface SpawnResultBody {
  ok: boolean;
  sessionKey?: string;
  error?: string;
  /** Why it failed: the plugin's reason, or `spawn_timeout` / `daemon_stopped` from the queue. */
  reason?: string;
}

/**
 * What `GET /v1/spawns/<id>/stop` answers: `stop` once the daemon wants the run ended; `known: false` for a spawn it
 * does not know.
 */
export interface SpawnStopBody {
  ok: true;
  stop: boolean;
  known: boolean;
}

/** What `GET /v1/tasks` answers: the index's rows that pass the filter, the invalid files, every status's count. */
export interface TasksResponse {
  ok: true;
  tasks: unknown[];
  invalid: unknown[];
  counts: Record<Status, number>;
}

/** What `GET /v1/tasks/changes` answers: the task change counter. */
export interface TaskChangesResponse {
  ok: true;
  version: number;
}

/** What `GET /v1/scheduler/plan` and `POST /v1/scheduler/tick` answer: the actions of one tick. */
export interface SchedulerResponse {
  ok: true;
  actions: unknown[];
}

/** `POST /v1/web`: the port to open the board on (any free port without it). */
export interface WebRequest {
  port?: number;
}

/** Where the board listens, and the token its URL carries once (`POST /v1/web` answers it with `ok: true`). */
export interface WebAddress {
  port: number;
  token: string;
  url: string;
}
