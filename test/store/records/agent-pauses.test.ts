import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { summarizeAgentActivity } from '../../../lib/store/events/agent-activity.js';
import { readAgentPauses, setAgentPause } from '../../../lib/store/records/agent-pauses.js';
import type { SvcEvent } from '../../../lib/store/events/log.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { SVC_BIN, writeOrg } from '../../helpers/agents.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const run = promisify(execFile);
const NOW = new Date('2026-11-21T10:00:00.000Z');

const pauses = suite('store.setAgentPause');
pauses.after.each(cleanRoots);

pauses('writes data/agent-pauses.json (mode 0600) and reads it back; a resume removes the agent', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  await store.init();
  const paths = toPaths(root);
  assert.equal([...(await readAgentPauses(paths)).keys()], []);
  const result = await setAgentPause(paths, store.events, {
    agent: 'dev',
    paused: true,
    actor: 'operator',
    reason: 'why',
    now: NOW,
  });
  assert.equal(result, {
    agent: 'dev',
    paused: true,
    changed: true,
    pause: { agent: 'dev', since: NOW.toISOString(), by: 'operator', reason: 'why' },
  });
  assert.is(statSync(paths.agentPauses).mode & 0o777, 0o600);
  assert.equal(JSON.parse(readFileSync(paths.agentPauses, 'utf8')), {
    paused: { dev: { since: NOW.toISOString(), by: 'operator', reason: 'why' } },
  });
  const later = new Date(NOW.getTime() + 60_000);
  const reason = await setAgentPause(paths, store.events, {
    agent: 'dev',
    paused: true,
    actor: 'ops',
    reason: 'new reason',
    now: later,
  });
  assert.equal(
    [reason.changed, reason.pause?.since, reason.pause?.reason],
    [true, NOW.toISOString(), 'new reason'],
    'a new reason keeps the first pause time',
  );
  assert.is(
    (await setAgentPause(paths, store.events, { agent: 'dev', paused: false, actor: 'operator', now: later })).changed,
    true,
  );
  assert.equal(
    (await setAgentPause(paths, store.events, { agent: 'dev', paused: false, actor: 'operator', now: later })).changed,
    false,
  );
  assert.equal([...(await readAgentPauses(paths)).keys()], []);
});

pauses('twenty pauses at once in one process are serialized by the lock: none is lost', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  await store.init();
  const agents = Array.from({ length: 20 }, (_, i) => `agent-${i}`);
  await Promise.all(
    agents.map((agent) =>
      setAgentPause(toPaths(root), store.events, { agent, paused: true, actor: 'operator', now: NOW }),
    ),
  );
  assert.equal([...(await readAgentPauses(toPaths(root))).keys()].sort(), [...agents].sort());
});

pauses('six command-line processes pausing six agents at once lose none of the pauses', async () => {
  const root = tempRoot();
  const agents = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
  writeOrg(root, { agents: agents.map((id) => ({ id, name: id })) });
  const env = { ...process.env, SVC_HOME: root };
  await Promise.all(
    agents.map((id) => run(process.execPath, [SVC_BIN, 'agent', 'pause', id, '--reason', `r-${id}`], { env })),
  );
  const read = await readAgentPauses(toPaths(root));
  assert.equal([...read.keys()].sort(), agents);
  assert.equal(
    [...read.values()].map((p) => p.reason).sort(),
    agents.map((id) => `r-${id}`),
  );
});

const activity = suite('store.summarizeAgentActivity');

const event = (type: string, taskId: string, payload: Record<string, unknown>, minute: number): SvcEvent => ({
  timestamp: `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`,
  type,
  taskId,
  actor: 'scheduler',
  payload,
});

activity('the last dispatch, and failed dispatches counted until a task dispatched to the agent completes', () => {
  const events = [
    event('task.dispatched', 'T1', { agent: 'dev' }, 1),
    event('dispatch.failed', 'T1', { agent: 'dev' }, 2),
    event('task.dispatched', 'T1', { agent: 'dev' }, 3),
    event('task.completed', 'T1', {}, 4),
    event('task.dispatched', 'T2', { agent: 'dev' }, 5),
    event('dispatch.failed', 'T2', { agent: 'dev' }, 6),
    event('task.dispatched', 'T3', { agent: 'dev' }, 7),
    event('dispatch.failed', 'T3', { agent: 'dev' }, 8),
    event('task.dispatched', 'T4', { agent: 'rev' }, 9),
    event('gate.transition', 'T4', {}, 10),
    event('task.completed', 'T9', {}, 11),
  ];
  const out = summarizeAgentActivity(events);
  assert.equal(out.get('dev'), { lastDispatch: { at: '2026-11-21T10:07:00.000Z', taskId: 'T3' }, failuresInARow: 2 });
  assert.equal(out.get('rev'), { lastDispatch: { at: '2026-11-21T10:09:00.000Z', taskId: 'T4' }, failuresInARow: 0 });
  assert.is(out.size, 2);
});

pauses.run();
activity.run();
