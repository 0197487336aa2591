import type * as z from 'zod';
import { article, describeValue } from './describe.js';
import { describeSchemaVersion } from './schema-version.js';

/**
 * The problems of a task's frontmatter in plain words, one `path: problem` a line: a missing field
 * is said to be missing, a newer `schemaVersion` to be newer (upgrade svc), a value of the wrong
 * type names what was expected and what was found. Needs issues parsed with `reportInput: true`.
 */
export function toTaskProblems(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const path = issue.path.length ? issue.path.map(String).join('.') : '(root)';
    const input = (issue as { input?: unknown }).input;
    if (path === 'schemaVersion') return describeSchemaVersion(input);
    if (issue.code === 'invalid_type' && input === undefined) return `${path} is missing`;
    if (issue.code === 'invalid_type')
      return `${path}: must be ${article(issue.expected)} (found ${describeValue(input)})`;
    if (issue.code === 'invalid_value')
      return `${path}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} (found ${describeValue(input)})`;
    return `${path}: ${issue.message}`;
  });
}
