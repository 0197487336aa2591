import { isStatus } from '../../core/status.js';
import { parseTask } from '../../core/task.js';
import type { ImportSource, SourceRead } from './record.js';
import { readSourceFile, toReason } from './read.js';

/** `svc import svc <file>`: a file written by `svc export` (json or jsonl), each task kept as it was. */
export const svcSource: ImportSource = {
  system: 'svc',
  expects: 'a file written by `svc export` (--format json or jsonl)',
  async read(path) {
    const text = await readSourceFile(path, this.expects);
    const out: SourceRead = { records: [], problems: [] };
    for (const { entry, where } of toEntries(text, path)) {
      try {
        if (entry instanceof Error) throw entry;
        const { status, frontmatter, body } = entry as { status?: unknown; frontmatter?: unknown; body?: unknown };
        if (!isStatus(status) || typeof body !== 'string')
          throw new Error('expected an object with status, frontmatter and body, as svc export writes');
        const task = parseTask(frontmatter, where);
        if (task.status !== status)
          throw new Error(
            `status is ${JSON.stringify(status)} but the frontmatter says ${JSON.stringify(task.status)}`,
          );
        out.records.push({
          sourceId: task.id,
          file: where,
          title: task.title,
          body,
          status,
          dependsOn: task.dependsOn,
          ...(task.parentId ? { parentId: task.parentId } : {}),
          exact: task,
        });
      } catch (err) {
        out.problems.push({ file: where, reason: toReason(err).replace(`${where}: `, '') });
      }
    }
    return out;
  },
};

// --- internal ---

function toEntries(text: string, path: string): { entry: unknown; where: string }[] {
  try {
    const whole = JSON.parse(text) as { format?: unknown; tasks?: unknown };
    if (whole && whole.format === 'svc-export' && Array.isArray(whole.tasks))
      return whole.tasks.map((entry, i) => ({ entry, where: `${path} tasks[${i}]` }));
  } catch {
    // not one JSON document: JSON lines
  }
  return text.split('\n').flatMap((line, i) => {
    if (!line.trim()) return [];
    try {
      return [{ entry: JSON.parse(line) as unknown, where: `${path}:${i + 1}` }];
    } catch (err) {
      return [{ entry: new Error(`not a JSON line (${toReason(err)})`), where: `${path}:${i + 1}` }];
    }
  });
}
