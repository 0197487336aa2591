import { describeValue } from './describe.js';
import { SvcError } from './errors.js';

/** The task schema version this svc writes and reads (docs/moving-in-and-out.md). */
export const TASK_SCHEMA_VERSION = 1;

/**
 * The schema version of raw frontmatter: 0 when absent (a hand-written file, or one older than
 * versioning), the number when it is a positive integer, null when it is something else.
 */
export function toSchemaVersion(data: Record<string, unknown>): number | null {
  const version = data.schemaVersion;
  if (version === undefined) return 0;
  return typeof version === 'number' && Number.isInteger(version) && version > 0 ? version : null;
}

/**
 * Throws for a task file written by a newer svc (its `schemaVersion` is above ours) or one that
 * has no `schemaVersion` at all (`svc migrate` adds it): both are clearer than a schema error.
 */
export function assertSchemaVersion(data: unknown, source: string): void {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return;
  const version = toSchemaVersion(data as Record<string, unknown>);
  const problem =
    `${source}: invalid task frontmatter (1 problem):\n  ` +
    `${describeSchemaVersion((data as Record<string, unknown>).schemaVersion)}`;
  if (version !== null && version > TASK_SCHEMA_VERSION)
    throw new SvcError('validation_error', problem, 'Upgrade svc to read this file; it is left untouched.');
  if (version === 0)
    throw new SvcError(
      'validation_error',
      problem,
      'Run `svc migrate` to add it and the defaults of missing fields (each changed file is backed up first).',
    );
}

/** A `schemaVersion` that is not ours, in plain words: missing, newer than this svc, or not a version. */
export function describeSchemaVersion(found: unknown): string {
  if (found === undefined)
    return `schemaVersion is missing (this svc reads version ${TASK_SCHEMA_VERSION}); run \`svc migrate\` to add it`;
  if (typeof found === 'number' && Number.isInteger(found) && found > TASK_SCHEMA_VERSION) {
    return (
      `schemaVersion ${found} is newer than this svc understands ` +
      `(it reads version ${TASK_SCHEMA_VERSION}); upgrade svc`
    );
  }
  return `schemaVersion: must be ${TASK_SCHEMA_VERSION} (found ${describeValue(found)})`;
}
