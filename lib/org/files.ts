import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SvcError } from '../core/errors.js';

// lib/org may import lib/core and lib/fs only, so it cannot use lib/store/disk/paths.ts. These
// functions mirror `toPaths(root).orgChart`, `.workflows` and `.workflowFile(name)`;
// test/org/files.test.ts fails the moment they disagree.

/** The org chart of a root: `org/org-chart.yaml` (same as `toPaths(root).orgChart`). */
export function toOrgChartFile(root: string): string {
  return join(resolve(root), 'org', 'org-chart.yaml');
}

/** The workflows folder of a root: `org/workflows` (same as `toPaths(root).workflows`). */
export function toWorkflowsDir(root: string): string {
  return join(resolve(root), 'org', 'workflows');
}

/** A workflow of a root: `org/workflows/<name>.yaml` (same as `toPaths(root).workflowFile(name)`). */
export function toWorkflowFile(root: string, name: string): string {
  return join(toWorkflowsDir(root), `${name}.yaml`);
}

/** The text of a file, or null when it does not exist; other read failures are `unavailable`. */
export async function readIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new SvcError('unavailable', `${file}: cannot be read (${code ?? String(err)}).`, {
      hint: 'Check that the path is a readable file.',
      cause: err,
    });
  }
}
