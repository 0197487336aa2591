import { existsSync } from 'node:fs';
import { SvcError, toSvcError } from '../../core/errors.js';
import { assertRequestId } from '../../core/request-id.js';
import { toPaths } from '../../store/disk/paths.js';
import type { MoveResult } from '../../tools/operator.js';
import type { Context } from './context.js';
import { operate } from './operate.js';
import { operateBatch, type BatchOutcome } from './operate-batch.js';

/** One id's outcome in a bulk command (`--json` prints the list). */
export type BulkOutcome =
  | { id: string; ok: true; move: MoveResult }
  | { id: string; ok: false; error: ReturnType<SvcError['toJSON']>['error'] };

/** The call of one id: the tool (the same for every id) and its params. */
export type Call = (id: string) => [tool: string, params: Record<string, unknown>];

/** Calls sent at once one by one (no daemon, or one without batches; the store commits concurrent moves together). */
export const BULK_WINDOW = 32;
/** Ids sent in one request to a running daemon. */
export const BATCH_SIZE = 50;
/** Batch requests in flight at once. */
export const BATCH_WINDOW = 4;
/**
 * From this many ids on, a run sends `LARGE_BATCH` ids a request, `LARGE_WINDOW` at once: more in flight keeps the
 * daemon's commits grouped.
 */
export const LARGE_RUN = 2_000;
const LARGE_BATCH = 100;
const LARGE_WINDOW = 8;

/**
 * Runs the call of each id (sent under `<base>.<n>`) and hands each outcome to `done` in order, as
 * soon as those before it are in. Through a running daemon the ids go `BATCH_SIZE` to a request,
 * `BATCH_WINDOW` requests at once (from `LARGE_RUN` ids, 100 and 8); without one, or to a daemon that takes no batches,
 * each id is a
 * call of its own, `BULK_WINDOW` at once. Once `stopped()`, nothing new is started; what is under
 * way (a call, a batch) finishes.
 */
/** How a bulk run goes: the request id its calls extend, the call of an id, when to stop, where each outcome goes. */
export interface BulkRun {
  /** Each call is sent under `<base>.<n>`. */
  base: string;
  call: Call;
  /** Once true, nothing new is started. */
  stopped: () => boolean;
  /** Gets each outcome, in the order of the ids. */
  done: (outcome: BulkOutcome) => void;
}

export async function runBulk(
  ctx: Context,
  ids: readonly string[],
  { base, call, stopped, done }: BulkRun,
): Promise<void> {
  const one = (n: number) => runOne({ ...ctx, requestId: `${base}.${n + 1}` }, ids[n]!, call);
  if (!existsSync(toPaths(ctx.root).socket))
    return runWindowed(
      ids.length,
      { size: 1, width: BULK_WINDOW },
      { run: async (n) => [await one(n)], stopped, done },
    );
  let batching = true;
  const batch = async (start: number, end: number): Promise<BulkOutcome[]> => {
    const calls = ids
      .slice(start, end)
      .map((id, i) => ({ params: call(id)[1], requestId: `${base}.${start + i + 1}` }));
    // A request id the daemon would refuse fails each of its calls on its own, as without batches.
    const batchable = batching && calls.every((one) => isRequestId(one.requestId));
    const answers = batchable ? await operateBatch(ctx, call(ids[start]!)[0], calls) : undefined;
    if (batchable && !answers) batching = false;
    const outcomes: BulkOutcome[] = [];
    const each = async (i: number) => [toBulkOutcome(ids[start + i]!, answers?.[i]) ?? (await one(start + i))];
    await runWindowed(
      end - start,
      { size: 1, width: BULK_WINDOW / window.width },
      { run: each, stopped: () => false, done: (outcome) => void outcomes.push(outcome) },
    );
    return outcomes;
  };
  const window =
    ids.length >= LARGE_RUN ? { size: LARGE_BATCH, width: LARGE_WINDOW } : { size: BATCH_SIZE, width: BATCH_WINDOW };
  return runWindowed(ids.length, window, { run: batch, stopped, done });
}

// --- internal ---

/**
 * Runs `count` items in chunks of `size`, `width` chunks at a time, and hands each result to `done`
 * in order as soon as those before it are in. Once `stopped()`, no chunk is started.
 */
async function runWindowed<T>(
  count: number,
  chunks: { size: number; width: number },
  { run, stopped, done }: WindowedRun<T>,
): Promise<void> {
  const results = new Map<number, T[]>();
  let next = 0;
  let reported = 0;
  const worker = async (): Promise<void> => {
    while (next < count && !stopped()) {
      const start = next;
      next = Math.min(count, start + chunks.size);
      results.set(start, await run(start, next));
      for (let found = results.get(reported); found; found = results.get(reported)) {
        results.delete(reported);
        reported += found.length;
        found.forEach(done);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(chunks.width, Math.ceil(count / chunks.size)) }, worker));
}

/** What a windowed run does: `run` a chunk, until `stopped()`, handing each result to `done`. */
interface WindowedRun<T> {
  run: (start: number, end: number) => Promise<T[]>;
  stopped: () => boolean;
  done: (result: T) => void;
}

async function runOne(ctx: Context, id: string, call: Call): Promise<BulkOutcome> {
  try {
    return { id, ok: true, move: await operate<MoveResult>(ctx, ...call(id)) };
  } catch (err) {
    return { id, ok: false, error: (err instanceof SvcError ? err : toSvcError(err)).toJSON().error };
  }
}

function isRequestId(value: string): boolean {
  try {
    return assertRequestId(value) === value;
  } catch {
    return false;
  }
}

/** A batch's answer for one id, or undefined when the call is to be made on its own. */
function toBulkOutcome(id: string, answer: BatchOutcome): BulkOutcome | undefined {
  if (answer === undefined) return undefined;
  return answer.ok
    ? { id, ok: true, move: answer.result as MoveResult }
    : { id, ok: false, error: answer.error.toJSON().error };
}
