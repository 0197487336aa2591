import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendNote, noteTask, toNoteEntry, toNoteText } from '../../../lib/store/changes/note.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { SVC_BIN } from '../../helpers/agents.js';
import { cleanRoots, fixedClock, tempRoot } from '../../helpers/root.js';
import { inProgressTask, rejects } from '../../tools/helpers.js';

const text = suite('store.appendNote');

text('adds a Notes section at the end when the body has none, and keeps the body', () => {
  assert.is(appendNote('Do it.\n', '- a'), 'Do it.\n\n## Notes\n\n- a\n');
  assert.is(appendNote('', '- a'), '## Notes\n\n- a\n');
});

text('appends at the end of an existing Notes section, before the next heading', () => {
  const body = '# Task\n\n## Notes\n\n- first\n\n## Plan\n\nstep 1\n';
  assert.is(appendNote(body, '- second'), '# Task\n\n## Notes\n\n- first\n- second\n\n## Plan\n\nstep 1\n');
  assert.is(appendNote('## Notes\n', '- x'), '## Notes\n\n- x\n');
});

text('a Notes heading inside a code fence is not the section', () => {
  const body = '```\n## Notes\n```\n';
  assert.is(appendNote(body, '- x'), '```\n## Notes\n```\n\n## Notes\n\n- x\n');
});

text('a note is one entry: later lines are indented under it; control characters are refused', async () => {
  assert.is(toNoteText('  one\r\ntwo\n## not a heading  '), 'one\n  two\n  ## not a heading');
  assert.is(toNoteEntry(new Date('2026-11-25T10:00:59.999Z'), 'op', 'x'), '- 2026-11-25T10:00Z op: x');
  await rejects(
    Promise.resolve().then(() => toNoteText('red \u001b[31m')),
    'validation_error',
    'control character \\u001b at offset 4',
  );
  await rejects(
    Promise.resolve().then(() => toNoteText('flip \u202e')),
    'validation_error',
    '\\u202e',
  );
  await rejects(
    Promise.resolve().then(() => toNoteText(' \n ')),
    'validation_error',
    'empty',
  );
  await rejects(
    Promise.resolve().then(() => toNoteText('x'.repeat(4001))),
    'too_large',
    'limit is 4000',
  );
});

const note = suite('store.noteTask');
note.after.each(cleanRoots);

note('a stale session is refused; a live lease of another agent does not refuse a note', async () => {
  const root = tempRoot();
  const store = createStore({ root, clock: fixedClock('2026-11-25T10:00:00Z') });
  const { id, sessionId } = await inProgressTask(store);
  await noteTask(store, id, { actor: 'dev', sessionId, text: 'by the holder' });
  await noteTask(store, id, { actor: 'operator', text: 'by a human' });
  await rejects(
    noteTask(store, id, { actor: 'dev', sessionId: 'old-session', text: 'late' }),
    'stale_session',
    'no longer holds',
  );
  const { body, status } = await store.get(id);
  assert.is(status, 'in-progress');
  assert.is(body, '## Notes\n\n- 2026-11-25T10:00Z dev: by the holder\n- 2026-11-25T10:00Z operator: by a human\n');
});

note('notes of several processes racing on one task all land, and the body stays', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const { task } = await store.create({ title: 'Raced', body: 'Keep this line.', createdBy: 'test' });
  const writers = 4;
  const each = 5;
  const script = (w: number) =>
    `for i in $(seq 1 ${each}); do "$NODE" "$BIN" ${w % 2 ? `tool svc_task_note "{\\"taskId\\":\\"${task.id}\\",\\"actor\\":\\"agent${w}\\",\\"text\\":\\"w${w} n$i\\"}"` : `task note ${task.id} w${w} n$i`} >/dev/null || exit 1; done`;
  const runs = Array.from(
    { length: writers },
    (_, w) =>
      new Promise<number | null>((resolve) => {
        const child = spawn('sh', ['-c', script(w)], {
          env: { ...process.env, SVC_HOME: root, NODE: process.execPath, BIN: SVC_BIN },
          stdio: 'inherit',
        });
        child.on('close', resolve);
      }),
  );
  assert.equal(await Promise.all(runs), Array(writers).fill(0));
  const body = readFileSync(store.paths.taskFile('backlog', task.id), 'utf8');
  assert.ok(body.includes('\nKeep this line.\n\n## Notes\n\n- '), body);
  for (let w = 0; w < writers; w++) {
    for (let i = 1; i <= each; i++)
      assert.match(body, new RegExp(`Z ${w % 2 ? `agent${w}` : 'operator'}: w${w} n${i}\n`));
  }
  assert.is(body.match(/^- \d{4}-/gm)!.length, writers * each);
});

text.run();
note.run();
