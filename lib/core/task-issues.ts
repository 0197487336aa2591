import type * as z from 'zod';

/** The frontmatter version this svc reads and writes. */
export const TASK_SCHEMA_VERSION = 1;

/**
 * The problems of a task's frontmatter in plain words, one `path: problem` a line: a missing field
 * is said to be missing, a newer `schemaVersion` to be newer (upgrade svc), a value of the wrong
 * type names what was expected and what was found. Needs issues parsed with `reportInput: true`.
 */
export function toTaskProblems(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const path = issue.path.length ? issue.path.map(String).join('.') : '(root)';
    const input = (issue as { input?: unknown }).input;
    if (path === 'schemaVersion') return describeVersion(input);
    if (issue.code === 'invalid_type' && input === undefined) return `${path} is missing`;
    if (issue.code === 'invalid_type') return `${path}: must be ${article(issue.expected)} (found ${describeValue(input)})`;
    if (issue.code === 'invalid_value') return `${path}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} (found ${describeValue(input)})`;
    return `${path}: ${issue.message}`;
  });
}

// --- internal ---

function describeVersion(found: unknown): string {
  if (found === undefined) return `schemaVersion is missing (this svc reads version ${TASK_SCHEMA_VERSION})`;
  if (typeof found === 'number' && Number.isInteger(found) && found > TASK_SCHEMA_VERSION) {
    return `schemaVersion ${found} is newer than this svc understands (it reads version ${TASK_SCHEMA_VERSION}); upgrade svc`;
  }
  return `schemaVersion: must be ${TASK_SCHEMA_VERSION} (found ${describeValue(found)})`;
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
