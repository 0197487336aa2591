import { writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTask, type Task } from '../../../lib/core/task.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { readTaskFile, renderTask } from '../../../lib/store/disk/task-file.js';
import { initTree } from '../../../lib/store/commit/store.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const ID = 'TASK-2026-11-26-001';

const task = (extra: Record<string, unknown> = {}): Task =>
  parseTask(
    {
      schemaVersion: 1,
      id: ID,
      project: 'default',
      title: "Fix the login page, it's broken: #3",
      status: 'in-progress',
      priority: 'high',
      routing: { agent: 'dev', tags: ['ui', 'auth'] },
      createdAt: '2026-11-26T10:00:00.000Z',
      updatedAt: '2026-11-26T11:00:00.000Z',
      lastTransitionAt: '2026-11-26T11:00:00.000Z',
      createdBy: 'operator',
      dependsOn: ['TASK-2026-11-25-004'],
      metadata: {},
      lease: { agent: 'dev', expiresAt: '2026-11-26T11:30:00.000Z', sessionId: 'a3c2', pid: 4242 },
      ...extra,
    },
    'test',
  );

const render = suite('store.renderTask');
render.after.each(cleanRoots);

render('writes the bytes svc wrote before for a plain task, in the stable key order', () => {
  assert.is(
    renderTask(task(), 'Body.\n'),
    [
      '---',
      'schemaVersion: 1',
      `id: ${ID}`,
      'project: default',
      "title: 'Fix the login page, it''s broken: #3'",
      'status: in-progress',
      'priority: high',
      'routing:',
      '  agent: dev',
      '  tags:',
      '    - ui',
      '    - auth',
      "createdAt: '2026-11-26T10:00:00.000Z'",
      "updatedAt: '2026-11-26T11:00:00.000Z'",
      "lastTransitionAt: '2026-11-26T11:00:00.000Z'",
      'createdBy: operator',
      'dependsOn:',
      '  - TASK-2026-11-25-004',
      'metadata: {}',
      'lease:',
      '  agent: dev',
      "  expiresAt: '2026-11-26T11:30:00.000Z'",
      '  sessionId: a3c2',
      '  pid: 4242',
      '---',
      '',
      'Body.',
      '',
    ].join('\n'),
  );
});

render('what it renders reads back from disk as the task it was given, awkward metadata included', async () => {
  const paths = toPaths(tempRoot());
  await initTree(paths);
  const metadata = {
    note: 'two\nlines',
    spaced: ' both ',
    words: ['yes', 'null', '~', '12', '1.5', ''],
    nested: { 'a key': { 'x:y': [{}, []] } },
    unicode: 'é 😀 \u2028 \t',
    numbers: [0, -1, 1.5, 1e21],
  };
  const given = task({ metadata, gate: { workflow: 'review', current: 'code', history: [{ summary: 'Done.\n' }] } });
  const path = paths.taskFile('in-progress', ID);
  writeFileSync(path, renderTask(given, 'The body.\n'));
  const read = await readTaskFile(path);
  assert.equal(read.task, given);
  assert.is(read.body, 'The body.\n');
});

render('refuses metadata nested deeper than the reader reads with validation_error naming the path', () => {
  let deep: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < 40; i++) deep = { inner: deep };
  try {
    renderTask(task({ metadata: deep }), '');
    assert.unreachable('rendered');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'validation_error');
    assert.match((err as Error).message, `${ID}: the task file would not read back: \`metadata.inner.inner`);
    assert.match((err as Error).message, 'nested deeper than 30 levels');
    assert.match((err as { hint?: string }).hint ?? '', 'nothing was written');
  }
});

render('refuses what it cannot write, and files over the size limits, as before', () => {
  for (const [metadata, code, text] of [
    [{ when: new Date(0) }, 'validation_error', '`metadata.when` is a Date'],
    [{ list: [1, undefined] }, 'validation_error', '`metadata.list.1` is undefined'],
    [{ blob: 'y'.repeat(70_000) }, 'too_large', 'the frontmatter would have'],
  ] as const) {
    try {
      renderTask(task({ metadata }), '', 'new task');
      assert.unreachable(text);
    } catch (err) {
      assert.is((err as { code?: string }).code, code);
      assert.match((err as Error).message, `new task: `);
      assert.match((err as Error).message, text);
    }
  }
  assert.throws(() => renderTask(task(), 'x'.repeat(1024 * 1024)), /the task file would have \d+ bytes/);
});

render.run();
