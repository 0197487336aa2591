import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryLocks } from '../../../lib/fs/lock/memory.js';

const memory = suite('fs.lock.memory');

memory('changes of one key run one at a time, in the order they came; other keys do not wait', async () => {
  const lock = createMemoryLocks();
  const order: string[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const first = lock('a', { what: 'a' }, async () => {
    order.push('a1 in');
    await gate;
    order.push('a1 out');
  });
  const second = lock('a', { what: 'a' }, async () => void order.push('a2'));
  await lock('b', { what: 'b' }, async () => void order.push('b'));
  assert.equal(order, ['a1 in', 'b'], 'b ran while a was held; a2 waits');
  open();
  await Promise.all([first, second]);
  assert.equal(order, ['a1 in', 'b', 'a1 out', 'a2']);
});

memory('a change that waits past waitMs fails with locked, and the next one still runs after the holder', async () => {
  const lock = createMemoryLocks();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const holder = lock('t', { what: 'TASK-1' }, () => gate);
  const late = await lock('t', { what: 'TASK-1', waitMs: 20 }, async () => 'ran').catch((err: unknown) => err);
  assert.is((late as { code?: string }).code, 'locked');
  assert.match((late as Error).message, /TASK-1 is locked by another change of the daemon/);
  let ran = false;
  const next = lock('t', { what: 'TASK-1' }, async () => void (ran = true));
  assert.not.ok(ran);
  open();
  await Promise.all([holder, next]);
  assert.ok(ran);
});

memory('a failing change releases its key', async () => {
  const lock = createMemoryLocks();
  const failed = await lock('k', { what: 'k' }, async () => Promise.reject(new Error('boom'))).catch(
    (err: Error) => err,
  );
  assert.is((failed as Error).message, 'boom');
  assert.is(await lock('k', { what: 'k', waitMs: 0 }, async () => 'free'), 'free');
});

memory.run();
