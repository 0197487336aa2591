import { SvcError } from '../../core/errors.js';

/** The errors the command line itself finds in its arguments: exit 2, like an unknown command or option. */
const usageErrors = new WeakSet<SvcError>();

/** Marks an error as a usage error (a value the command line does not accept, such as an unknown status): exit 2. */
export function toUsageError(error: SvcError): SvcError {
  usageErrors.add(error);
  return error;
}

/** Runs a check of an argument; the SvcError it throws becomes a usage error (exit 2). */
export function asUsage<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    throw err instanceof SvcError ? toUsageError(err) : err;
  }
}

/** True for an error marked by `toUsageError`. */
export function isUsageError(err: unknown): err is SvcError {
  return err instanceof SvcError && usageErrors.has(err);
}
