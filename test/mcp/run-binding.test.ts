import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { claimTask } from '../../lib/store/changes/work.js';
import { createStore } from '../../lib/store/commit/store.js';
import { readEvents } from '../../lib/store/events/log.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

// `svc mcp` started for an agent runtime's run (docs/agent-runtimes.md): a call that omits `actor` gets the run's
// agent, and a call on the run's task that omits `sessionId` gets the run's session.
const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

async function bound(run: { taskId: string; sessionId: string; agent: string }, root: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/svc.js', 'mcp'],
    cwd: packageRoot,
    env: {
      SVC_HOME: root,
      PATH: process.env.PATH ?? '',
      SVC_RUN_TASK_ID: run.taskId,
      SVC_RUN_SESSION_ID: run.sessionId,
      SVC_RUN_AGENT: run.agent,
    },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const binding = suite('mcp.a server bound to a run');
binding.after.each(cleanRoots);

binding('a completion without sessionId or actor is the run agent’s, under the run’s session', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const created = await store.create({
    title: 'Bound',
    body: 'Work.',
    status: 'ready',
    routing: { agent: 'coder' },
    createdBy: 'test',
  });
  const claimed = await claimTask(store, created.task.id, { actor: 'test', agent: 'coder' });
  const sessionId = claimed.after.task.lease!.sessionId;
  const client = await bound({ taskId: created.task.id, sessionId, agent: 'coder' }, root);
  try {
    const done = await client.callTool({
      name: 'svc_task_complete',
      arguments: { taskId: created.task.id, summary: 'Done, bound.' },
    });
    assert.not.ok(done.isError, JSON.stringify(done.content));
    assert.is((await store.get(created.task.id)).status, 'done');
    const [completed] = await readEvents(root, { taskId: created.task.id, type: 'task.completed' });
    assert.is(completed?.actor, 'coder');
  } finally {
    await client.close();
  }
});

binding('a call on another task gets the run’s actor but not its session', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  const mine = await store.create({ title: 'Mine', status: 'ready', routing: { agent: 'coder' }, createdBy: 'test' });
  const other = await store.create({ title: 'Other', status: 'ready', routing: { agent: 'coder' }, createdBy: 'test' });
  const claimed = await claimTask(store, mine.task.id, { actor: 'test', agent: 'coder' });
  await claimTask(store, other.task.id, { actor: 'test', agent: 'coder' });
  const client = await bound(
    { taskId: mine.task.id, sessionId: claimed.after.task.lease!.sessionId, agent: 'coder' },
    root,
  );
  try {
    // Given the run's session, this completion would be refused (the other task's lease is another session).
    const done = await client.callTool({ name: 'svc_task_complete', arguments: { taskId: other.task.id } });
    assert.not.ok(done.isError, JSON.stringify(done.content));
    assert.is((await store.get(other.task.id)).status, 'done');
    const [completed] = await readEvents(root, { taskId: other.task.id, type: 'task.completed' });
    assert.is(completed?.actor, 'coder');
  } finally {
    await client.close();
  }
});

binding.run();
