import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve } from 'node:path';

/** The placeholders a workspace template may use (docs/workspaces.md). */
export const TEMPLATE_PLACEHOLDERS = ['id', 'slug', 'root'] as const;

/**
 * The branch a workspace's worktrees get unless it names one: task ids restart per svc root, so the root's own id keeps
 * two roots on one repository apart.
 */
export const DEFAULT_BRANCH_TEMPLATE = 'svc/{root}/{id}';

/** What a template is filled with. */
export interface TemplateValues {
  id: string;
  title: string;
  /** The svc root's short id (`toRootId`). */
  root: string;
}

/** A short, stable id of an svc root: the first 8 hex digits of the SHA-256 of its absolute path. */
export function toRootId(svcRoot: string): string {
  return createHash('sha256').update(resolve(svcRoot)).digest('hex').slice(0, 8);
}

/** A title as a branch-safe word: lowercase, runs of anything but [a-z0-9] as one `-`, at most 40 characters. */
export function toSlug(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'task';
}

/** Fills `{id}`, `{slug}` and `{root}` of a template. */
export function fillTemplate(template: string, values: TemplateValues): string {
  return template
    .replace(/\{id\}/g, values.id)
    .replace(/\{slug\}/g, toSlug(values.title))
    .replace(/\{root\}/g, values.root);
}

/** The problems of a branch template: unknown placeholders, no `{id}`, or a ref name git refuses. */
export function checkBranchTemplate(template: string): string[] {
  const problems = checkPlaceholders(template);
  if (problems.length) return problems;
  const sample = fillTemplate(template, SAMPLE);
  const why = whyInvalidRef(sample);
  return why ? [`makes an invalid branch name (${JSON.stringify(sample)}: ${why})`] : [];
}

/** The problems of a worktree folder template: unknown placeholders, no `{id}`, or a path that leaves `root`. */
export function checkDirTemplate(template: string, root: string): string[] {
  const problems = checkPlaceholders(template);
  if (problems.length) return problems;
  const sample = fillTemplate(template, SAMPLE);
  if (isAbsolute(template) || template.split(/[\\/]/).some((part) => part === '..' || part === '.'))
    return ['could escape the workspace root (use a relative folder such as "{id}", without "." or ".." parts)'];
  const rel = relative(resolve(root), resolve(root, sample));
  return !rel || rel.startsWith('..') || isAbsolute(rel) ? ['could escape the workspace root'] : [];
}

/** Why `name` is not a valid git branch name (the rules of git check-ref-format), or null. */
export function whyInvalidRef(name: string): string | null {
  if (!name) return 'empty';
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return 'contains a space, a control character or one of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'contains ".."';
  if (name.includes('@{') || name === '@') return 'contains "@{" or is "@"';
  if (name.startsWith('-')) return 'starts with "-"';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'has an empty path component';
  if (name.endsWith('.')) return 'ends with "."';
  if (name.split('/').some((part) => part.startsWith('.') || part.endsWith('.lock')))
    return 'has a component starting with "." or ending with ".lock"';
  return null;
}

// --- internal ---

const SAMPLE: TemplateValues = { id: 'TASK-2026-01-01-001', title: 'A sample title', root: '0a1b2c3d' };

function checkPlaceholders(template: string): string[] {
  const unknown = [...template.matchAll(/\{([^}]*)\}/g)]
    .map((m) => m[1]!)
    .filter((name) => !(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length)
    return [`unknown placeholder ${unknown.map((n) => `{${n}}`).join(', ')} (known: {id}, {slug}, {root})`];
  if (!template.includes('{id}')) return ['must contain {id} (each task needs one of its own)'];
  return [];
}
