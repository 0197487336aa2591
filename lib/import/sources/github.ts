import { SvcError } from '../../core/errors.js';
import type { ImportSource, SourceRead } from './record.js';
import { readSourceFile, toIsoTime, toReason } from './read.js';

/**
 * `svc import github <file>`: the JSON that `gh issue list --state all --json
 * number,title,body,labels,state,assignees,url,createdAt` writes (svc reads no network). Open
 * issues come in as backlog, closed ones as done; labels become tags.
 */
export const githubSource: ImportSource = {
  system: 'github',
  expects:
    'a JSON file written by `gh issue list --state all --json number,title,body,labels,state,assignees,url,createdAt`',
  async read(path) {
    const text = await readSourceFile(path, this.expects);
    let issues: unknown;
    try {
      issues = JSON.parse(text);
    } catch (err) {
      throw new SvcError(
        'validation_error',
        `${path} is not JSON (${toReason(err)}); expected ${this.expects}.`,
        'Write the file with gh issue list --json ... > issues.json.',
      );
    }
    if (!Array.isArray(issues))
      throw new SvcError(
        'validation_error',
        `${path} holds ${typeof issues === 'object' && issues ? 'an object' : typeof issues}, ` +
          `not a list of issues; expected ${this.expects}.`,
        'Write the file with gh issue list --json ... > issues.json.',
      );
    const out: SourceRead = { records: [], problems: [] };
    issues.forEach((issue: Record<string, unknown> | null, i) => {
      const where = `${path}[${i}]`;
      if (!issue || typeof issue !== 'object' || !Number.isInteger(issue.number) || typeof issue.title !== 'string') {
        return void out.problems.push({ file: where, reason: 'expected an issue with a whole `number` and a `title`' });
      }
      const state = String(issue.state ?? '').toUpperCase();
      if (state !== 'OPEN' && state !== 'CLOSED')
        return void out.problems.push({
          file: where,
          reason: `state is ${JSON.stringify(issue.state)}; expected OPEN or CLOSED`,
        });
      const labels = (Array.isArray(issue.labels) ? issue.labels : [])
        .map((label: { name?: unknown }) => label?.name)
        .filter((name): name is string => typeof name === 'string' && name.length > 0);
      const assignees = (Array.isArray(issue.assignees) ? issue.assignees : [])
        .map((who: { login?: unknown }) => who?.login)
        .filter((login): login is string => typeof login === 'string');
      const createdAt = toIsoTime(issue.createdAt);
      out.records.push({
        sourceId: String(issue.number),
        file: where,
        title: issue.title,
        body: typeof issue.body === 'string' ? issue.body : '',
        status: state === 'OPEN' ? 'backlog' : 'done',
        tags: labels,
        dependsOn: [],
        ...(typeof issue.url === 'string' ? { url: issue.url } : {}),
        ...(createdAt ? { createdAt } : {}),
        extra: { number: issue.number, ...(assignees.length ? { assignees } : {}) },
      });
    });
    return out;
  },
};
