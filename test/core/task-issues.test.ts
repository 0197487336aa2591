import { readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTask } from '../../lib/core/task.js';
import { toOneLine } from '../../lib/core/text.js';
import { svc } from '../helpers/cli.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const problems = suite('core.toTaskProblems');
problems.after.each(cleanRoots);

/** A task created by the CLI, its file rewritten by `edit`; returns the root and the task's file. */
async function handEdited(edit: (text: string) => string): Promise<{ root: string; file: string }> {
  const root = tempRoot();
  const id = (await svc(root, 'task', 'create', 'Hello')).stdout.split('\n')[0]!;
  const file = `${root}/tasks/backlog/${id}.md`;
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  return { root, file };
}

function parseError(data: Record<string, unknown>): { message: string; hint?: string } {
  try {
    parseTask(data, 'tasks/ready/T.md');
  } catch (err) {
    return err as { message: string; hint?: string };
  }
  throw new Error('parseTask accepted it');
}

problems(
  'a newer schemaVersion is said to be newer, with "upgrade svc", and no stray ":;" on the doctor line',
  async () => {
    const { root, file } = await handEdited((text) => text.replace('schemaVersion: 1', 'schemaVersion: 2'));
    const show = await svc(root, 'task', 'show', '001');
    assert.is(show.code, 1);
    assert.ok(
      show.stderr.includes(
        `${file}: invalid task frontmatter (1 problem):\n  schemaVersion 2 is newer than this svc understands (it reads version 1); upgrade svc\n`,
      ),
      show.stderr,
    );
    assert.match(show.stderr, /hint: Upgrade svc to read this file/);
    const doctor = await svc(root, 'doctor');
    assert.match(
      doctor.stdout,
      /invalid tasks\/backlog\/TASK-[\d-]+\.md: invalid task frontmatter \(1 problem\): schemaVersion 2 is newer than this svc understands \(it reads version 1\); upgrade svc\n/,
    );
    assert.not.match(doctor.stdout, /:;|Invalid input/);
  },
);

problems('a missing schemaVersion is said to be missing; the list warning reads as one line', async () => {
  const { root } = await handEdited((text) => text.replace('schemaVersion: 1\n', ''));
  const show = await svc(root, 'task', 'show', '001');
  assert.match(
    show.stderr,
    /invalid task frontmatter \(1 problem\):\n  schemaVersion is missing \(this svc reads version 1\); run `svc migrate` to add it\n/,
  );
  const list = await svc(root, 'task', 'list');
  assert.match(
    list.stderr,
    /warning: skipped invalid task file \S+: invalid task frontmatter \(1 problem\): schemaVersion is missing \(this svc reads version 1\); run `svc migrate` to add it\n/,
  );
  assert.not.match(list.stderr, /:;|:  /);
});

problems('every problem in plain words: missing, wrong type, a value not among the allowed ones', () => {
  const error = parseError({ schemaVersion: 'one', id: 'T', title: 7, status: 'later' });
  assert.match(error.message, /invalid task frontmatter \(\d+ problems\):\n/);
  assert.match(error.message, /\n  schemaVersion: must be 1 \(found string "one"\)\n/);
  assert.match(error.message, /\n  project is missing\n/);
  assert.match(error.message, /\n  title: must be a string \(found number 7\)\n/);
  assert.match(error.message, /\n  status: must be one of "backlog", "ready", .* \(found string "later"\)/);
  assert.not.match(error.message, /Invalid input/);
  assert.match(error.hint ?? '', /Fix the listed fields/);
});

const oneLine = suite('core.toOneLine');

oneLine('runs a line ending in ":" into the next and joins the others with "; "', () => {
  assert.is(
    toOneLine('f.md: invalid task frontmatter (2 problems):\n  a is missing\n  b: must be a string\n'),
    'f.md: invalid task frontmatter (2 problems): a is missing; b: must be a string',
  );
});

problems.run();
oneLine.run();
