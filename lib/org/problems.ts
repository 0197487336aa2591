import type * as z from 'zod';
import { SvcError } from '../core/errors.js';
import { article, describeValue } from '../core/describe.js';

/** One problem found in a file: where (a document path such as `teams[0].members[1]`) and what. */
export interface Problem {
  path: string;
  problem: string;
}

/** Formats a document path: `agents[1].id`, `roles.reviewer.agents[0]`, `(root)` for the top. */
export function toPathString(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  return out || '(root)';
}

/** Turns zod issues into problems; an unknown key becomes one problem at the key itself. */
export function toProblems(issues: readonly z.core.$ZodIssue[]): Problem[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: toPathString([...issue.path, key]), problem: issue.message }));
    }
    return [{ path: toPathString(issue.path), problem: issue.message }];
  });
}

/** The parse-level error map: plain words for missing and mistyped values. */
export function describeIssue(iss: z.core.$ZodRawIssue): string | undefined {
  if (iss.code !== 'invalid_type') return undefined;
  if (iss.input === undefined) return `required (${iss.expected})`;
  return `must be ${article(iss.expected)} (found ${describeValue(iss.input)})`;
}

/** What a list of problems is about: the file (`source`), what it holds (`what`) and the hint to fix it. */
export interface ProblemSource {
  source: string;
  what: string;
  hint: string;
}

/** Throws one `validation_error` listing every problem, one `path: problem` a line. */
export function throwProblems(problems: readonly Problem[], { source, what, hint }: ProblemSource): never {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = problems.map((p) => `  ${p.path}: ${p.problem}`).join('\n');
  throw new SvcError('validation_error', `${source}: invalid ${what} (${count}):\n${lines}`, hint);
}

/** A plain mapping of string keys, or null. */
export function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The entries of an array that are mappings, with their index; nothing for a non-array. */
export function recordsOf(value: unknown): Array<[number, Record<string, unknown>]> {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item, index) => {
    const record = asRecord(item);
    return record ? [[index, record] as [number, Record<string, unknown>]] : [];
  });
}
