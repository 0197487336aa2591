import { readFile } from 'node:fs/promises';
import { describeError, hasCode } from '../../core/errors.js';
import { ensureDir, writeDurable } from '../../fs/atomic.js';
import type { TriggerKind } from '../../org/schema.js';
import type { Paths } from '../../store/disk/paths.js';

/** `.murmur/<team-id>.json`: exactly the fields of the specification; written by the scheduler only. */
export interface MurmurState {
  lastReviewAt: string | null;
  completionsSinceLastReview: number;
  failuresSinceLastReview: number;
  currentReviewTaskId: string | null;
  reviewStartedAt: string | null;
  lastTriggeredBy: TriggerKind | null;
}

/** The state of a team that never had a review. */
export function newMurmurState(): MurmurState {
  return {
    lastReviewAt: null,
    completionsSinceLastReview: 0,
    failuresSinceLastReview: 0,
    currentReviewTaskId: null,
    reviewStartedAt: null,
    lastTriggeredBy: null,
  };
}

/**
 * Reads a team's state file; a missing file is a fresh state. A field with the wrong type takes its
 * fresh value and is reported through `warn` (the file is not meant to be edited by hand).
 */
export async function readMurmurState(
  paths: Paths,
  teamId: string,
  warn: (line: string) => void,
): Promise<MurmurState> {
  const file = paths.murmurFile(teamId);
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    if (!hasCode(err, 'ENOENT')) warn(`${file} is unreadable (${describeError(err)}); starting from a fresh state`);
    return newMurmurState();
  }
  return toMurmurState(data, (key) => warn(`${file}: field ${key} has the wrong type; using its fresh value`));
}

/** Writes a team's state file atomically and durably (temporary file, fsync, rename). */
export async function writeMurmurState(paths: Paths, teamId: string, state: MurmurState): Promise<void> {
  await ensureDir(paths.murmur);
  const ordered: MurmurState = {
    lastReviewAt: state.lastReviewAt,
    completionsSinceLastReview: state.completionsSinceLastReview,
    failuresSinceLastReview: state.failuresSinceLastReview,
    currentReviewTaskId: state.currentReviewTaskId,
    reviewStartedAt: state.reviewStartedAt,
    lastTriggeredBy: state.lastTriggeredBy,
  };
  await writeDurable(paths.murmurFile(teamId), `${JSON.stringify(ordered, null, 2)}\n`);
}

// --- internal ---

const KINDS = ['queueEmpty', 'completionBatch', 'interval', 'failureBatch'];

/**
 * A state from parsed JSON (a file, or the state a duty's last owner handed over); a field with the wrong type takes
 * its fresh value.
 */
export function toMurmurState(data: unknown, bad: (key: string) => void): MurmurState {
  const fresh = newMurmurState();
  const record =
    data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const pick = <K extends keyof MurmurState>(key: K, ok: (value: unknown) => boolean): MurmurState[K] => {
    const value = record[key];
    if (value === undefined || value === null) return fresh[key];
    if (ok(value)) return value as MurmurState[K];
    bad(key);
    return fresh[key];
  };
  const isIso = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v));
  const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  return {
    lastReviewAt: pick('lastReviewAt', isIso),
    completionsSinceLastReview: pick('completionsSinceLastReview', isCount),
    failuresSinceLastReview: pick('failuresSinceLastReview', isCount),
    currentReviewTaskId: pick('currentReviewTaskId', (v) => typeof v === 'string' && v.length > 0),
    reviewStartedAt: pick('reviewStartedAt', isIso),
    lastTriggeredBy: pick('lastTriggeredBy', (v) => typeof v === 'string' && KINDS.includes(v)),
  };
}
