import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SVC_BIN } from '../../helpers/agents.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

/** Runs the built CLI with `input` on its stdin. */
function bin(root: string, argv: string[], input = '') {
  const out = spawnSync(process.execPath, [SVC_BIN, ...argv], {
    env: { ...process.env, SVC_HOME: root },
    input,
    encoding: 'utf8',
  });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** Runs the built CLI with its stdout closed before it writes anything; resolves with the exit code and stderr. */
function withClosedStdout(root: string, argv: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, ...argv], {
      env: { ...process.env, SVC_HOME: root },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const pipes = suite('cli.pipes (built bin/svc.js)');
pipes.after.each(cleanRoots);

pipes('`svc task create x | head -1` prints the id and exits 0, with no EPIPE trace', () => {
  const root = tempRoot();
  const out = spawnSync(
    'bash',
    ['-c', `set -o pipefail; "${process.execPath}" "${SVC_BIN}" task create Piped | head -1`],
    { env: { ...process.env, SVC_HOME: root }, encoding: 'utf8' },
  );
  assert.is(out.status, 0, out.stderr);
  assert.match(out.stdout, /^TASK-\d{4}-\d{2}-\d{2}-001\n$/);
  assert.is(out.stderr, '');
});

pipes('a reader that is gone before the first line: the task is still created, exit 0, nothing on stderr', async () => {
  const root = tempRoot();
  const out = await withClosedStdout(root, ['task', 'create', 'Nobody reads']);
  assert.equal(out, { code: 0, stderr: '' });
  assert.equal(readdirSync(join(root, 'tasks', 'backlog')).filter((name) => name.endsWith('.md')).length, 1);
  const listed = await withClosedStdout(root, ['task', 'list']);
  assert.equal(listed, { code: 0, stderr: '' });
});

pipes('`svc tool <name> -` reads the params from stdin', () => {
  const root = tempRoot();
  bin(root, ['task', 'create', 'Counted']);
  const all = bin(root, ['tool', 'svc_status']);
  assert.is((JSON.parse(all.stdout) as { total: number }).total, 1);
  const out = bin(root, ['tool', 'svc_status', '-'], '{"status": "ready"}');
  assert.is(out.code, 0, out.stderr);
  assert.is((JSON.parse(out.stdout) as { total: number }).total, 0);
  const bad = bin(root, ['tool', 'svc_status', '-'], '{not json');
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /params is not JSON/);
});

pipes('a usage error with --json is the JSON error shape on stderr, exit 2', () => {
  const root = tempRoot();
  for (const argv of [
    ['frobnicate', '--json'],
    ['task', 'status', 'x', 'ready', '--json'],
    ['task', 'list', '--bogus', '--json'],
  ]) {
    const out = bin(root, argv);
    assert.is(out.code, 2, argv.join(' '));
    assert.is(out.stdout, '');
    const body = JSON.parse(out.stderr) as { ok: boolean; error: { code: string; message: string; hint: string } };
    assert.equal([body.ok, body.error.code], [false, 'validation_error']);
    assert.match(body.error.hint, /--help/);
  }
  const plain = bin(root, ['frobnicate']);
  assert.equal([plain.code, plain.stderr.startsWith('svc: Unknown command')], [2, true]);
});

pipes.run();
