import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

const mcp = suite('cli.svc mcp');
mcp.after.each(cleanRoots);

mcp('speaks JSON-RPC only on stdout and exits 0 when stdin closes', async () => {
  const root = tempRoot();
  const child = spawn(process.execPath, ['bin/svc.js', 'mcp'], {
    cwd: packageRoot,
    env: { SVC_HOME: root, PATH: process.env.PATH ?? '' },
  });
  let out = '';
  let err = '';
  let exit: number | null | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  child.on('exit', (code) => {
    exit = code;
  });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli-test', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'svc_dispatch', arguments: { title: 'From stdin', brief: 'x' } },
  });
  await within(10_000, () => out.split('\n').filter(Boolean).length >= 2, 'two responses');
  child.stdin.end();
  await within(10_000, () => exit !== undefined, 'exit after stdin closed');
  assert.is(exit, 0);
  assert.is(err, '');
  const lines = out
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { jsonrpc: string; id: number; result: Record<string, unknown> });
  assert.ok(lines.every((line) => line.jsonrpc === '2.0'));
  assert.equal(
    lines.map((line) => line.id),
    [1, 2],
  );
  assert.equal((lines[1]!.result.structuredContent as Record<string, unknown>).status, 'backlog');
});

mcp.run();
