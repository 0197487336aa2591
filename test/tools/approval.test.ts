import { PassThrough } from 'node:stream';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SvcError } from '../../lib/core/errors.js';
import { findPackageRoot } from '../../lib/core/package-root.js';
import { callTool, startMcpServer } from '../../lib/mcp/server.js';
import { loadToolSchemas } from '../../lib/plugin/tools.js';
import { createStore } from '../../lib/store/commit/store.js';
import { APPROVAL_TOOLS } from '../../lib/tools/approval.js';
import { TOOLS } from '../../lib/tools/index.js';
import { APPROVAL_TOOL_NAMES } from '../../lib/tools/names.js';
import { invokeTool } from '../../lib/tools/registry.js';
import { writeOrg } from '../helpers/agents.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// The approval tools are an operator's: on the daemon's socket and `svc tool`, never offered to agents
// over MCP or the plugin (an agent must not approve its own work; docs/approvals-and-logs.md).
const NAMES = ['svc_task_approve', 'svc_task_reject'];

const exposure = suite('tools.APPROVAL_TOOLS');
exposure.after.each(cleanRoots);

exposure('are the two approval tools, named as APPROVAL_TOOL_NAMES, and not agent tools', () => {
  assert.equal(
    APPROVAL_TOOLS.map((tool) => tool.name),
    NAMES,
  );
  assert.equal([...APPROVAL_TOOL_NAMES], NAMES);
  for (const name of NAMES)
    assert.not.ok(
      TOOLS.some((tool) => tool.name === name),
      `${name} is not an agent tool`,
    );
});

exposure('MCP lists neither and refuses a call to them as an unknown tool', async () => {
  const root = tempRoot();
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  const server = startMcpServer({ root, stdin, stdout });
  stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
  );
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
  await within(5000, () => out.split('\n').filter(Boolean).length >= 2, 'two responses');
  const listed = (
    JSON.parse(out.split('\n').filter(Boolean)[1]!) as { result: { tools: { name: string }[] } }
  ).result.tools.map((tool) => tool.name);
  assert.ok(listed.includes('svc_task_complete'), 'the agent tools are listed');
  for (const name of NAMES) assert.not.ok(listed.includes(name), `${name} is not listed`);
  await server.close();
  const called = await callTool(
    TOOLS,
    { name: 'svc_task_approve', arguments: { taskId: 'TASK-2026-01-01-001', actor: 'dev' } },
    { store: createStore({ root }) },
  );
  assert.is(called.isError, true);
  assert.is((called.structuredContent as { error: { code: string } }).error.code, 'unknown_tool');
});

exposure('the plugin registers neither: the built tool schemas and the plugin manifest leave them out', () => {
  const schemas = loadToolSchemas().map((schema) => schema.name);
  assert.ok(schemas.includes('svc_task_complete'));
  const manifest = JSON.parse(readFileSync(join(findPackageRoot(), 'openclaw.plugin.json'), 'utf8')) as {
    contracts: { tools: string[] };
  };
  for (const name of NAMES) {
    assert.not.ok(schemas.includes(name), `${name} has no plugin schema`);
    assert.not.ok(manifest.contracts.tools.includes(name), `${name} is not in the plugin manifest`);
  }
});

exposure.run();

const refusals = suite('tools.assertOperatorDecision');
refusals.after.each(cleanRoots);

refusals(
  'a call from an agent run, or naming an agent of the org chart as actor, is refused before anything is read',
  async () => {
    const root = tempRoot();
    writeOrg(root, { agents: [{ id: 'dev', name: 'Dev' }] });
    const store = createStore({ root });
    const params = { taskId: 'TASK-2026-01-01-001', gate: 'signoff', note: 'fine' };
    const fromRun = {
      store,
      runCaller: async () => ({ taskId: 'TASK-2026-01-01-001', sessionId: 's1', agent: 'dev' }),
    };
    for (const name of NAMES) {
      const err = await invokeTool(
        APPROVAL_TOOLS,
        { tool: name, params: { ...params, actor: 'alice' } },
        fromRun,
      ).catch((e: unknown) => e as SvcError);
      assert.is((err as SvcError).code, 'forbidden_role');
      assert.match(
        (err as SvcError).message,
        new RegExp(
          `${name} on TASK-2026-01-01-001 is a person's decision, and this call comes from a run of agent dev \\(task TASK-2026-01-01-001, session s1\\)`,
        ),
      );
      const named = await invokeTool(
        APPROVAL_TOOLS,
        { tool: name, params: { ...params, actor: 'Dev' } },
        { store, runCaller: async () => null },
      ).catch((e: unknown) => e as SvcError);
      assert.is((named as SvcError).code, 'forbidden_role');
      assert.match((named as SvcError).message, /actor `Dev` is an agent of the org chart/);
    }
    const alone = await invokeTool(
      APPROVAL_TOOLS,
      { tool: 'svc_task_approve', params: { ...params, actor: 'alice' } },
      { store, runCaller: async () => null },
    ).catch((e: unknown) => e as SvcError);
    assert.is((alone as SvcError).code, 'not_found', 'a person passes the check (and finds no such task)');
  },
);

refusals.run();
