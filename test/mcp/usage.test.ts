import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readTaskUsage } from '../../lib/store/changes/usage.js';
import { createStore } from '../../lib/store/commit/store.js';
import { claimTask } from '../../lib/store/changes/work.js';
import { writeOrg } from '../helpers/agents.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

const usage = suite('mcp.svc_task_update usage (spawned svc mcp)');
usage.after.each(cleanRoots);

usage('an agent reports its spend over MCP: counted once per call, a bad usage refused as a tool error', async () => {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: ['./run.sh'] }],
    aof: { pricing: { 'local-7b': { inputUsdPerMTok: 1, outputUsdPerMTok: 2 } } },
  });
  const store = createStore({ root });
  const { task } = await store.create({ title: 'Metered', status: 'ready', routing: { agent: 'dev' }, createdBy: 't' });
  const sessionId = (await claimTask(store, task.id, { actor: 'test', agent: 'dev' })).after.task.lease!.sessionId;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/svc.js', 'mcp'],
    cwd: packageRoot,
    env: { SVC_HOME: root, PATH: process.env.PATH ?? '' },
  });
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const spent = { inputTokens: 1_000_000, outputTokens: 500_000, model: 'local-7b' };
    const updated = await client.callTool({
      name: 'svc_task_update',
      arguments: { taskId: task.id, sessionId, actor: 'dev', usage: spent },
    });
    assert.not.ok(updated.isError, JSON.stringify(updated.content));
    const bad = await client.callTool({
      name: 'svc_task_update',
      arguments: { taskId: task.id, sessionId, usage: { inputTokens: -5, outputTokens: 1 } },
    });
    assert.ok(bad.isError);
    assert.match(JSON.stringify(bad.content), 'usage.inputTokens: must be 0 or more');
  } finally {
    await client.close();
  }
  const total = readTaskUsage((await store.get(task.id)).task.metadata);
  assert.equal(total, {
    inputTokens: 1_000_000,
    outputTokens: 500_000,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 2,
    runs: 1,
    lastRun: `${sessionId}-report-1`,
  });
});

usage.run();
