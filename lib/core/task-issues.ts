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
      return (
        `${path}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} ` +
        `(found ${describeValue(input)})`
      );
    return `${path}: ${issue.message}`;
  });
}

/** Why a `__proto__` key is refused rather than silently lost. */
export const DROPPED_KEY_PROBLEM =
  'the key "__proto__" is refused: JavaScript objects cannot keep it, so it would be silently dropped';

/**
 * The paths of every `__proto__` key in a plain value (as JSON.parse or YAML may produce), which
 * validation and copies would drop without a word. Iterative, so any depth is safe.
 */
export function findDroppedKeys(value: unknown, root = ''): string[] {
  if (!hasDroppedKey(value)) return [];
  const out: string[] = [];
  const stack: { value: unknown; path: string }[] = [{ value, path: root }];
  while (stack.length) {
    const { value: node, path } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    for (const key of Object.keys(node)) {
      const at = Array.isArray(node) ? `${path}[${key}]` : `${path}${path ? '.' : ''}${key}`;
      if (key === '__proto__') out.push(at);
      stack.push({ value: (node as Record<string, unknown>)[key], path: at });
    }
  }
  return out.sort();
}

/**
 * The fast check of `findDroppedKeys` (no paths built): most values have no such key. Values nested
 * deeper than 256 levels are not looked into: nothing that deep is ever written (the reader's limit is 32).
 */
function hasDroppedKey(node: unknown, depth = 0): boolean {
  if (typeof node !== 'object' || node === null || depth > 256) return false;
  if (!Array.isArray(node) && Object.hasOwn(node, '__proto__')) return true;
  const values = Object.values(node);
  for (let i = 0; i < values.length; i++) if (hasDroppedKey(values[i], depth + 1)) return true;
  return false;
}
