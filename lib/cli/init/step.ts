import type { OrgDraft } from './org-draft.js';

/** What became of a step: applied, nothing to do, not applied (with why), or shown only (dry run, no terminal). */
export const STEP_STATUSES = ['done', 'already done', 'skipped', 'planned'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** One line of the wizard's output (and one object of `--json`). */
export interface StepResult {
  step: string;
  status: StepStatus;
  /** What the step changes (or would change), one item per change. */
  changes: string[];
  why?: string;
  notes?: string[];
}

/** Asks a question on the terminal; resolves to the answer, or `fallback` on an empty one. */
export type Ask = (question: string, fallback: string) => Promise<string>;

/** What the steps read and change: the config draft, the org chart draft, and files to write at the end. */
export interface InitState {
  root: string;
  packageRoot: string;
  env: Record<string, string | undefined>;
  config: Record<string, unknown>;
  org: OrgDraft;
  skillFile: string;
  envFile: string;
  /** File writes other than the gateway config and the org chart, done only when the run applies. */
  files: Map<string, { content: string; mode?: number }>;
  /** Standalone mode: the tools over `svc mcp` instead of the plugin. */
  standalone: boolean;
  /** The terminal, when the wizard may ask; undefined with --yes, --dry-run or no terminal. */
  ask?: Ask;
}

/** A step's plan: nothing to do, not possible (why), or changes and the function that makes them on the drafts. */
export type Plan =
  | { kind: 'already'; notes?: string[] }
  | { kind: 'skip'; why: string; notes?: string[] }
  | {
      kind: 'change';
      changes: string[];
      apply: () => void;
      notes?: string[] /** The step asked its own questions: no further confirmation. */;
      asked?: boolean;
    };

/** A wizard step: a name and a planner over the current drafts (earlier steps' changes included). */
export interface Step {
  name: string;
  plan(state: InitState): Promise<Plan> | Plan;
}

/** Nested object at `keys` under `root`, created (as `{}`) where missing or not an object. */
export function objectAt(root: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  let node = root;
  for (const key of keys) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  return node;
}

/** Nested value at `keys`, or undefined; never creates anything. */
export function valueAt(root: unknown, ...keys: string[]): unknown {
  let node = root;
  for (const key of keys) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The strings of an array value (anything else counts as an empty list). */
export function stringsAt(root: unknown, ...keys: string[]): string[] {
  const value = valueAt(root, ...keys);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
