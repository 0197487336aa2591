import { existsSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { entryFile, writeEntry, type OutboxEntry } from '../../../lib/notify/outbox.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { writeOrg } from '../../helpers/agents.js';
import { svc } from '../../helpers/cli.js';
import { startReceiver, type HttpReceiver } from '../../helpers/http-receiver.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

// `svc notify list|retry|test` without a daemon: the outbox's files, and a test sent from the command itself.
const test = suite('cli.notify');
let receiver: HttpReceiver;
test.before.each(async () => {
  receiver = await startReceiver();
});
test.after.each(async () => {
  await receiver.close();
  cleanRoots();
});

function setUp(): string {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev' }],
    aof: { notify: [{ id: 'ops-hook', webhook: receiver.url, events: ['task.deadletter'] }] },
  });
  return root;
}

function failedEntry(title: string): OutboxEntry {
  const at = '2026-11-29T10:00:00.000Z';
  return {
    notification: {
      deliveryId: '0b6c4a3e-1111-4222-8333-444455556666',
      subscription: 'ops-hook',
      event: { id: '2026-11-29:0', type: 'task.deadletter', at, taskId: 'TASK-2026-11-29-001', payload: {} },
      task: { id: 'TASK-2026-11-29-001', title, status: 'deadletter', priority: 'normal', project: 'default' },
      why: 'A task failed three times.',
    },
    createdAt: at,
    attempts: 7,
    nextAttemptAt: at,
    lastError: 'no answer within 10000 ms\u001b]0;owned\u0007',
    failedAt: at,
  };
}

test('list reads the outbox without a daemon; a file’s control characters never reach the terminal', async () => {
  const root = setUp();
  const empty = await svc(root, 'notify', 'list');
  assert.is(empty.code, 0, empty.stderr);
  assert.is(empty.stdout, 'No notifications waiting in data/outbox/.\n');
  await writeEntry(toPaths(root), failedEntry('x'), true);
  const failed = await svc(root, 'notify', 'list', '--failed');
  assert.is(failed.code, 0, failed.stderr);
  assert.match(
    failed.stdout,
    /0b6c4a3e-1111-4222-8333-444455556666\s+ops-hook\s+task\.deadletter\s+TASK-2026-11-29-001\s+7\s+no answer/,
  );
  assert.not.ok(/[\u0000-\u0009\u000b-\u001f]/.test(failed.stdout), JSON.stringify(failed.stdout));
  const json = await svc(root, 'notify', 'list', '--failed', '--json');
  assert.is((JSON.parse(json.stdout) as OutboxEntry[])[0]!.attempts, 7);
});

test('retry without a daemon moves a failed delivery back to pending for the next start, and says so', async () => {
  const root = setUp();
  const paths = toPaths(root);
  await writeEntry(paths, failedEntry('x'), true);
  const res = await svc(root, 'notify', 'retry', '0b6c4a3e-1111-4222-8333-444455556666');
  assert.is(res.code, 0, res.stderr);
  assert.match(res.stdout, '1 delivery of 0b6c4a3e-1111-4222-8333-444455556666 due now, back in data/outbox/');
  assert.match(res.stdout, 'no daemon runs, so the next `svc daemon start` sends them.');
  assert.ok(existsSync(entryFile(paths, '0b6c4a3e-1111-4222-8333-444455556666')));
  assert.not.ok(existsSync(entryFile(paths, '0b6c4a3e-1111-4222-8333-444455556666', true)));
  assert.is(receiver.requests.length, 0, 'nothing is sent by the command');
});

test('retry needs an id or --all (a usage error), and an id that matches nothing is not_found', async () => {
  const root = setUp();
  const none = await svc(root, 'notify', 'retry');
  assert.is(none.code, 2);
  assert.match(none.stderr, 'svc notify retry needs a delivery id or --all.');
  const unknown = await svc(root, 'notify', 'retry', 'nope', '--json');
  assert.is(unknown.code, 1);
  assert.match(unknown.stdout + unknown.stderr, 'Nothing to retry: no pending or failed delivery matches nope.');
});

test('test sends a sample from the command when no daemon runs; an unknown subscription gets "Did you mean"', async () => {
  const root = setUp();
  const sent = await svc(root, 'notify', 'test', 'ops-hook');
  assert.is(sent.code, 0, sent.stderr);
  assert.match(sent.stdout, /^Sent a sample to ops-hook \(HTTP 200\) in \d+ ms\.\n$/);
  const [request] = await receiver.waitFor(1);
  assert.is(request!.headers['x-svc-event'], 'notify.test');
  receiver.fallback({ status: 500, body: 'broken' });
  const failed = await svc(root, 'notify', 'test', 'ops-hook', '--json');
  assert.is(failed.code, 1);
  const body = JSON.parse(failed.stdout) as { ok: boolean; status: number; via: string };
  assert.equal([body.ok, body.status, body.via], [false, 500, 'direct']);
  const typo = await svc(root, 'notify', 'test', 'ops-hok');
  assert.is(typo.code, 1);
  assert.match(typo.stderr, 'No subscription "ops-hok" in aof.notify. Did you mean "ops-hook"?');
  assert.match(typo.stderr, 'Subscriptions: ops-hook.');
});

test.run();
