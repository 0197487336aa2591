import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatOutbox } from '../../../lib/cli/notify/format.js';
import type { OutboxEntry } from '../../../lib/notify/outbox.js';

const test = suite('cli.notify formatOutbox');
const now = new Date('2026-11-29T10:00:00.000Z');

function entry(over: Partial<OutboxEntry> & { subscription?: string; title?: string } = {}): OutboxEntry {
  return {
    notification: {
      deliveryId: '6f1c2b1e-0000-4000-8000-000000000001',
      subscription: over.subscription ?? 'ops-hook',
      event: {
        id: '2026-11-29:0',
        type: 'task.deadletter',
        at: now.toISOString(),
        taskId: 'TASK-2026-11-29-001',
        payload: {},
      },
      task: {
        id: 'TASK-2026-11-29-001',
        title: over.title ?? 'x',
        status: 'deadletter',
        priority: 'normal',
        project: 'p',
      },
      why: 'it failed',
    },
    createdAt: now.toISOString(),
    attempts: 3,
    nextAttemptAt: '2026-11-29T10:00:30.000Z',
    ...over,
  };
}

test('a table with the delivery, subscription, event, task, attempts and the next attempt with the last error', () => {
  const lines = formatOutbox([entry({ lastError: 'HTTP 500' })], { failed: false, now });
  assert.match(lines[0]!, /^DELIVERY\s+SUBSCRIPTION\s+EVENT\s+TASK\s+ATTEMPTS\s+NEXT \/ LAST ERROR$/);
  assert.match(
    lines[1]!,
    /^6f1c2b1e-0000-4000-8000-000000000001\s+ops-hook\s+task\.deadletter\s+TASK-2026-11-29-001\s+3\s+in 30s \(2026-11-29T10:00:30\.000Z\); HTTP 500$/,
  );
  assert.is(lines[2], '1 pending');
});

test('nothing read from a file reaches the terminal with a control character', () => {
  const lines = formatOutbox([entry({ subscription: 'a\u001b[2Jb', lastError: 'bad\u0007\nline' })], {
    failed: true,
    now,
  });
  const text = lines.join('\n');
  assert.not.ok(/[\u0000-\u0009\u000b-\u001f\u007f]/.test(text), JSON.stringify(text));
  assert.match(text, 'a\\x1b[2Jb');
  assert.is(lines.length, 3, 'one row, no line broken by the error');
});

test('an empty outbox says so', () => {
  assert.equal(formatOutbox([], { failed: true, now }), ['No failed notifications in data/outbox/failed/.']);
});

test.run();
