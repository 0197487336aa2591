import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApprovalAlerts, formatApprovalAlert } from '../../../lib/engine/alerts/approval.js';
import type { IndexEntry } from '../../../lib/store/index/tasks.js';

const alerts = suite('engine.createApprovalAlerts');

alerts('alerts once per arrival at an approval gate, and not for a task blocked for another reason', () => {
  const entries = new Map<string, Partial<IndexEntry>>([
    [
      't1',
      { id: 't1', title: 'Ship', status: 'blocked', awaiting: { gate: 'signoff', since: '2026-11-26T10:00:00.000Z' } },
    ],
    ['t2', { id: 't2', title: 'Stuck', status: 'blocked', awaiting: undefined }],
  ]);
  const lines: string[] = [];
  const watcher = createApprovalAlerts({
    entryOf: (id) => entries.get(id) as IndexEntry | undefined,
    alert: (text) => lines.push(text),
  });
  watcher.observe({ id: 't1', from: 'in-progress', to: 'blocked' });
  watcher.observe({ id: 't1', from: 'in-progress', to: 'blocked' });
  watcher.observe({ id: 't2', from: 'in-progress', to: 'blocked' });
  watcher.observe({ id: 't1', from: 'blocked', to: 'ready' });
  entries.set('t1', { ...entries.get('t1'), awaiting: { gate: 'signoff', since: '2026-11-26T11:00:00.000Z' } });
  watcher.observe({ id: 't1', from: 'in-progress', to: 'blocked' });
  assert.equal(lines, [
    '[AOF] APPROVAL NEEDED: t1 "Ship" at gate signoff',
    '[AOF] APPROVAL NEEDED: t1 "Ship" at gate signoff',
  ]);
});

alerts('the line escapes the control characters of the title and the gate', () => {
  assert.is(
    formatApprovalAlert('t1', 'Ship\u001b[2J\nnow', 'sign\u202eoff'),
    '[AOF] APPROVAL NEEDED: t1 "Ship\\x1b[2J\\nnow" at gate sign\\u202eoff',
  );
});

alerts.run();
