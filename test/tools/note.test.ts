import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { cleanRoots } from '../helpers/root.js';
import { inProgressTask, rejects, setup, snapshot } from './helpers.js';

const note = suite('tools.svc_task_note');
note.after.each(cleanRoots);

note('appends under ## Notes as the calling agent, tells the index, and returns the line', async () => {
  const { call, store, committed, root } = setup();
  const { id, sessionId } = await inProgressTask(store);
  const result = await call('svc_task_note', {
    taskId: id.slice(-3),
    text: 'found the cause\nin the cache',
    actor: 'dev',
    sessionId,
  });
  assert.equal(result, {
    taskId: id,
    status: 'in-progress',
    note: '- 2026-11-21T10:00Z dev: found the cause\n  in the cache',
  });
  assert.equal(committed.at(-1), [id]);
  await call('svc_task_note', { taskId: id, text: 'second' });
  assert.match((await store.get(id)).body, /\n- 2026-11-21T10:00Z agent: second\n$/);
  const noted = (await readEvents(root)).filter((e) => e.type === 'task.updated').map((e) => e.payload.note);
  assert.equal(noted, ['found the cause\n  in the cache', 'second']);
});

note('a stale session, a control character, an empty or unknown param are refused, and nothing changes', async () => {
  const { call, store, root } = setup();
  const { id } = await inProgressTask(store);
  const before = snapshot(root);
  await rejects(
    call('svc_task_note', { taskId: id, text: 'late', sessionId: 'ended' }),
    'stale_session',
    'Session ended no longer holds',
  );
  await rejects(
    call('svc_task_note', { taskId: id, text: 'bell \u0007' }),
    'validation_error',
    'control character \\u0007',
  );
  await rejects(call('svc_task_note', { taskId: id, text: '' }), 'validation_error', 'text');
  await rejects(
    call('svc_task_note', { taskId: id, text: 'x', body: 'y' }),
    'validation_error',
    'unknown parameter "body"',
  );
  await rejects(call('svc_task_note', { taskId: '../etc', text: 'x' }), 'validation_error', 'taskId');
  assert.equal(snapshot(root), before);
});

note.run();
