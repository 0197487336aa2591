import { hasCode, SvcError } from '../core/errors.js';

/** Errors of a write that mean the filesystem (or the user's quota) has no room left. */
const FULL_CODES = ['ENOSPC', 'EDQUOT'] as const;

/** True when `err` says the disk (or the quota) is full. */
export function isDiskFull(err: unknown): boolean {
  return FULL_CODES.some((code) => hasCode(err, code)) || (err instanceof SvcError && err.code === 'no_space');
}

/**
 * A write that failed for want of space becomes `no_space` naming the file it was writing
 * (docs/reliability.md: a full disk); any other error is returned as it is.
 */
export function toWriteError(err: unknown, path: string): unknown {
  if (err instanceof SvcError || !isDiskFull(err)) return err;
  const quota = hasCode(err, 'EDQUOT') ? ' (disk quota exceeded)' : '';
  return new SvcError('no_space', `No space left on device writing ${path}${quota}.`, {
    hint:
      'Free space on the filesystem that holds it (for example old logs or data/conflicts/), then ' +
      'run the command again; nothing was changed by this call, and reads keep working meanwhile.',
    cause: err,
  });
}
