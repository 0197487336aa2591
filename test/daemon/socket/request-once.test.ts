import { readdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { call, closeDaemons, gate, gates, startTestDaemon } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

type Reply = { status: number; body: any; headers: Record<string, unknown> };

const invoke = (root: string, key: string | undefined, tool: string, params: unknown): Promise<Reply> =>
  call(
    root,
    'POST',
    '/v1/tool/invoke',
    { tool, params },
    key === undefined ? {} : { headers: { 'Idempotency-Key': key } },
  ) as Promise<Reply>;

const backlog = (root: string) => readdirSync(`${root}/tasks/backlog`).filter((n) => n.endsWith('.md'));

const once = suite('daemon.sendOnce');
once.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

once('a repeat of a key gets the first answer, marked replayed, and acts no second time', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  const first = await invoke(root, 'key-1', 'test_create', { title: 'Once' });
  const second = await invoke(root, 'key-1', 'test_create', { title: 'Once' });
  assert.is(first.status, 200);
  assert.equal(second.body, first.body);
  assert.equal([first.headers['idempotent-replayed'], second.headers['idempotent-replayed']], ['false', 'true']);
  assert.equal(backlog(root), [`${first.body.result.taskId}.md`]);
  const unkeyed = await invoke(root, undefined, 'test_create', { title: 'Once' });
  assert.is.not(unkeyed.body.result.taskId, first.body.result.taskId, 'a call without a key acts every time');
});

once('a repeat arriving while the first runs waits for it and gets its answer', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  gates.entered = gate();
  gates.wait = gate();
  const first = invoke(root, 'slow', 'test_wait', {});
  await gates.entered.promise;
  gates.entered = gate(); // a second run would open this one
  let secondDone = false;
  const second = invoke(root, 'slow', 'test_wait', {}).then((r) => {
    secondDone = true;
    return r;
  });
  const probe = await invoke(root, undefined, 'test_echo', { text: 'still serving' });
  assert.is(probe.body.result.echo, 'still serving');
  assert.not.ok(secondDone, 'the repeat waits for the first');
  gates.wait.open();
  const [a, b] = await Promise.all([first, second]);
  assert.equal(b.body, a.body);
  assert.is(b.headers['idempotent-replayed'], 'true', 'the repeat did not run the tool');
});

once('concurrent repeats of one create make one task', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  const replies = await Promise.all(
    Array.from({ length: 8 }, () => invoke(root, 'burst', 'test_create', { title: 'Burst' })),
  );
  assert.is(new Set(replies.map((r) => r.body.result.taskId)).size, 1);
  assert.is(replies.filter((r) => r.headers['idempotent-replayed'] === 'false').length, 1);
  assert.is(backlog(root).length, 1);
});

once('an error answer is remembered too; an answer that means nothing was done is not', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  const missing = await invoke(root, 'err', 'test_move', { taskId: 'TASK-2026-01-01-001', status: 'ready' });
  assert.is(missing.status, 404);
  const again = await invoke(root, 'err', 'test_move', { taskId: 'TASK-2026-01-01-001', status: 'ready' });
  assert.equal([again.status, again.body, again.headers['idempotent-replayed']], [404, missing.body, 'true']);
  const crash = await invoke(root, 'boom', 'test_crash', {});
  assert.is(crash.status, 500);
  assert.is((await invoke(root, 'boom', 'test_crash', {})).headers['idempotent-replayed'], 'true');
});

once('the same key for another call, and a malformed key, are refused and change nothing', async () => {
  const root = tempRoot();
  await startTestDaemon(root);
  await invoke(root, 'k', 'test_create', { title: 'First' });
  const other = await invoke(root, 'k', 'test_create', { title: 'Second' });
  assert.is(other.status, 400);
  assert.match(
    other.body.error.message,
    'Request id k was first used for another call (test_create with other parameters)',
  );
  for (const key of ['../../etc/passwd', 'x'.repeat(129), '']) {
    const bad = await invoke(root, key, 'test_create', { title: 'Bad' });
    assert.is(bad.status, 400, key);
    assert.match(bad.body.error.message, 'Invalid request id');
  }
  assert.is(backlog(root).length, 1);
});

once('answers survive a restart of the daemon', async () => {
  const root = tempRoot();
  const daemon = await startTestDaemon(root);
  const first = await invoke(root, 'durable', 'test_create', { title: 'Kept' });
  await daemon.close();
  await startTestDaemon(root);
  const again = await invoke(root, 'durable', 'test_create', { title: 'Kept' });
  assert.equal([again.body, again.headers['idempotent-replayed']], [first.body, 'true']);
  assert.is(backlog(root).length, 1);
});

once.run();
