import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { STATUSES, type Status } from '../../lib/core/status.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { readTaskFile } from '../../lib/store/disk/task-file.js';

/** What a tree looks like at rest: where each id is, and every broken rule found. */
export interface TreeCheck {
  where: Map<string, Status[]>;
  violations: string[];
}

/**
 * Checks the invariants of docs/architecture.md ("Invariants") on a tree at rest: I1 (one directory per id), I2 (every
 * task file parses), I3 (every id in `created` is present), I5 (frontmatter status = directory),
 * and no temporary or unexpected file left in a status directory.
 */
export async function checkTree(root: string, created: Iterable<string> = []): Promise<TreeCheck> {
  const paths = toPaths(root);
  const where = new Map<string, Status[]>();
  const violations: string[] = [];
  for (const status of STATUSES) {
    for (const name of readdirSync(paths.statusDir(status))) {
      if (name === '.gitkeep') continue;
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*\.md$/.test(name) || /\.md\./.test(name)) {
        violations.push(`leftover file ${status}/${name}`);
        continue;
      }
      const id = name.slice(0, -3);
      where.set(id, [...(where.get(id) ?? []), status]);
      await readTaskFile(join(paths.statusDir(status), name)).then(
        (stored) =>
          stored.task.status !== status &&
          violations.push(`I5 ${id}: frontmatter ${stored.task.status}, directory ${status}`),
        (err: Error) => violations.push(`I2 ${status}/${name}: ${err.message}`),
      );
    }
  }
  for (const [id, found] of where) if (found.length !== 1) violations.push(`I1 ${id} is in ${found.join(' and ')}`);
  for (const id of created) if (!where.has(id)) violations.push(`I3 ${id} is missing`);
  return { where, violations };
}
