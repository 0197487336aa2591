import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SVC_BIN } from '../helpers/agents.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

/** Runs the built CLI as a real process. */
function bin(root: string, ...argv: string[]) {
  const out = spawnSync(process.execPath, [SVC_BIN, ...argv], {
    env: { ...process.env, SVC_HOME: root },
    encoding: 'utf8',
  });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

const smoke = suite('cli.smoke (built bin/svc.js)');
smoke.after.each(cleanRoots);

smoke('prints the version, creates, lists, shows and moves tasks, with the exit codes of the contract', () => {
  const root = tempRoot();
  assert.match(bin(root, '--version').stdout, /^\d+\.\d+\.\d+\n$/);
  const created = bin(root, 'task', 'create', 'Smoke', 'test', '--priority', 'high');
  assert.is(created.code, 0, created.stderr);
  const id = created.stdout.split('\n')[0]!;
  assert.match(id, /^TASK-\d{4}-\d{2}-\d{2}-\d{3}$/);
  assert.equal(
    JSON.parse(bin(root, 'task', 'list', '--json').stdout).map((t: { id: string; title: string }) => [t.id, t.title]),
    [[id, 'Smoke test']],
  );
  assert.match(bin(root, 'task', 'show', id).stdout, /priority: high/);
  assert.is(bin(root, 'task', 'promote', id).stdout.trim(), `${id} backlog -> ready`);
  assert.match(bin(root, 'board').stdout, /Ready \(1\)/);
  const missing = bin(root, 'task', 'show', 'TASK-1999-01-01-001');
  assert.equal([missing.code, /hint: /.test(missing.stderr)], [1, true]);
  assert.is(bin(root, 'frobnicate').code, 2);
  assert.is(bin(root, 'daemon', 'status').code, 3);
});

smoke("bin/ on the PATH, as the README's first command sets it, gives a working svc from any directory", () => {
  const root = tempRoot();
  const binDir = fileURLToPath(new URL('../../bin', import.meta.url));
  const out = spawnSync(
    'sh',
    [
      '-c',
      'export PATH="$BIN:$PATH" && cd "$SVC_HOME" && command -v svc && svc --version && svc task create From the PATH',
    ],
    {
      env: { ...process.env, SVC_HOME: root, BIN: binDir },
      encoding: 'utf8',
    },
  );
  assert.is(out.status, 0, out.stderr);
  const [path, version, id] = out.stdout.split('\n');
  assert.is(path, join(binDir, 'svc'));
  assert.match(version!, /^\d+\.\d+\.\d+$/);
  assert.match(id!, /^TASK-\d{4}-\d{2}-\d{2}-001$/);
});

smoke.run();
