import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startMcpServer } from '../../lib/mcp/server.js';
import { createStore } from '../../lib/store/commit/store.js';
import { claimTask } from '../../lib/store/changes/work.js';
import { toToolManifest } from '../../lib/tools/manifest.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

type Structured = Record<string, unknown>;

/** Spawns the built `svc mcp` on a temp SVC_HOME and connects the official client to it. */
async function connect() {
  const root = tempRoot();
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/svc.js', 'mcp'],
    cwd: packageRoot,
    env: { SVC_HOME: root, PATH: process.env.PATH ?? '' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(transport);
  return { root, client, transport, stderr: () => stderr };
}

const spawned = suite('mcp.svc mcp (spawned, official client)');
spawned.after.each(cleanRoots);

spawned('lists exactly the eleven tools with the schemas generated from the zod schemas', async () => {
  const { client } = await connect();
  try {
    const { tools } = await client.listTools();
    const expected = toToolManifest();
    assert.equal(
      tools.map((tool) => tool.name),
      expected.map((entry) => entry.name),
    );
    assert.is(tools.length, 11);
    for (const [i, tool] of tools.entries()) {
      assert.equal(tool.inputSchema, expected[i]!.inputSchema, tool.name);
      assert.is(tool.description, expected[i]!.description);
    }
  } finally {
    await client.close();
  }
});

spawned('dispatches, reports status and completes a task, with structured content and text', async () => {
  const { client, root, stderr } = await connect();
  try {
    const dispatched = await client.callTool({
      name: 'svc_dispatch',
      arguments: { title: 'Over MCP', brief: 'Do it.', agent: 'dev', actor: 'main' },
    });
    assert.not.ok(dispatched.isError);
    const created = dispatched.structuredContent as Structured;
    assert.is(created.status, 'ready');
    assert.match(String(created.filePath), new RegExp(`^${root}/tasks/ready/TASK-\\d{4}-\\d{2}-\\d{2}-001\\.md$`));
    const text = (dispatched.content as Array<{ type: string; text: string }>)[0]!;
    assert.is(text.type, 'text');
    assert.equal(JSON.parse(text.text), created);

    const status = await client.callTool({ name: 'svc_status', arguments: {} });
    assert.equal((status.structuredContent as Structured).tasks, [
      { id: created.taskId, title: 'Over MCP', status: 'ready', agent: 'dev' },
    ]);

    const store = createStore({ root });
    const claimed = await claimTask(store, String(created.taskId), { actor: 'test', agent: 'dev' });
    const done = await client.callTool({
      name: 'svc_task_complete',
      arguments: {
        taskId: created.taskId,
        summary: 'Done over MCP.',
        sessionId: claimed.after.task.lease!.sessionId,
        actor: 'dev',
      },
    });
    assert.not.ok(done.isError);
    assert.equal(done.structuredContent, { taskId: created.taskId, status: 'done' });
    assert.is((await store.get(String(created.taskId))).status, 'done');
    assert.is(stderr(), '');
  } finally {
    await client.close();
  }
});

spawned('answers a bad id with a tool error carrying code, message and hint', async () => {
  const { client } = await connect();
  try {
    const missing = await client.callTool({ name: 'svc_task_cancel', arguments: { taskId: 'TASK-2026-01-01-999' } });
    assert.is(missing.isError, true);
    const { error } = missing.structuredContent as { error: { code: string; message: string; hint?: string } };
    assert.is(error.code, 'not_found');
    assert.match(error.message, /TASK-2026-01-01-999/);
    const text = (missing.content as Array<{ text: string }>)[0]!.text;
    assert.match(text, /^not_found: No task matches "TASK-2026-01-01-999"/);
    assert.match(text, /\nhint: /);

    const pathLike = await client.callTool({ name: 'svc_task_update', arguments: { taskId: '../x', body: 'x' } });
    assert.is(pathLike.isError, true);
    assert.is((pathLike.structuredContent as { error: { code: string } }).error.code, 'validation_error');

    const unknown = await client.callTool({ name: 'svc_nope', arguments: {} });
    assert.is(unknown.isError, true);
    assert.is((unknown.structuredContent as { error: { code: string } }).error.code, 'unknown_tool');
  } finally {
    await client.close();
  }
});

const inProcess = suite('mcp.startMcpServer');
inProcess.after.each(cleanRoots);

inProcess('writes only protocol messages on stdout and settles `closed` when stdin ends', async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const server = startMcpServer({ root: tempRoot(), stdin, stdout, version: '9.9.9' });
  stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
  );
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
  await within(5000, () => out.split('\n').filter(Boolean).length >= 2, 'two responses');
  const lines = out
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: number; result: Structured });
  assert.equal(
    lines.map((line) => line.id),
    [1, 2],
  );
  assert.equal((lines[0]!.result.serverInfo as Structured).name, 'svc');
  assert.is((lines[1]!.result.tools as unknown[]).length, 11);
  let closed = false;
  void server.closed.then(() => {
    closed = true;
  });
  stdin.end();
  await within(5000, () => closed, 'closed after stdin ended');
});

inProcess('close() ends the connection', async () => {
  const server = startMcpServer({ root: tempRoot(), stdin: new PassThrough(), stdout: new PassThrough() });
  await server.close();
  await server.closed;
});

spawned.run();
inProcess.run();
