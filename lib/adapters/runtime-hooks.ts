import type { Usage } from '../core/usage.js';
import type { RuntimeName } from '../org/runtimes.js';

/** One run of an agent CLI, as its hooks name it. */
export interface RuntimeRunRef {
  taskId: string;
  /** The lease's session. */
  sessionId: string;
  /** The run log's name without `.log` (`<session>-<n>`): the key a run's usage is recorded under once. */
  run: string;
  agent: string;
  runtime: RuntimeName;
}

/** What a run of an agent CLI left to record when it ended: the CLI's session and the usage, priced. */
export interface RuntimeRunRecord extends RuntimeRunRef {
  model: string | null;
  cliSession: string | null;
  usage: Usage | null;
}

/** What the owner of the runs (the daemon) does with them: pricing, budgets, recording. */
export interface RuntimeHooks {
  /** The usage priced by `aof.pricing` when the model is in it (else as the CLI reported it). */
  price?: (usage: Usage, model: string | null) => Usage;
  /** The run's usage so far, priced: `'stop'` ends the run (its budget is spent, the task was paused first). */
  onUsage?: (run: RuntimeRunRef, usage: Usage) => Promise<'continue' | 'stop'>;
  /** The run ended (or was found ended after a restart): record its session and usage. Idempotent per `run`. */
  onRecord?: (record: RuntimeRunRecord) => Promise<void>;
}
