// bin/svc.js keeps V8's code cache of the bundle in the user's cache folder: a command of a family
// writes it once, the next ones read it; a folder or file that is not this user's alone, a damaged
// file or SVC_COMPILE_CACHE=0 leave the command as it is without a cache.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SVC_BIN } from '../helpers/agents.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const cache = suite('cli compile cache (built bin/svc.js)');
cache.after.each(cleanRoots);

/** Runs the built CLI with its cache under `home` (XDG_CACHE_HOME unless `env` says otherwise). */
function run(
  root: string,
  home: string,
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [SVC_BIN, ...argv],
      { env: { ...process.env, SVC_HOME: root, HOME: home, XDG_CACHE_HOME: join(home, 'xdg'), NO_COLOR: '1', ...env } },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** The cache files of a cache folder (hidden temporaries left out), by family. */
function files(folder: string): Record<string, string> {
  if (!existsSync(folder)) return {};
  return Object.fromEntries(
    readdirSync(folder)
      .filter((name) => !name.startsWith('.'))
      .map((name) => [name.replace(/.*-/, '').replace('.v8', ''), join(folder, name)]),
  );
}

async function withTask(): Promise<{ root: string; home: string; folder: string }> {
  const root = tempRoot();
  const home = tempRoot('svc-home-');
  const created = await run(root, home, ['task', 'create', 'Cached'], { SVC_COMPILE_CACHE: '0' });
  assert.is(created.code, 0, created.stderr);
  return { root, home, folder: join(home, 'xdg', 'svc', 'v8') };
}

cache("a command writes its family's cache once, private to the user; the next one reads it as it is", async () => {
  const { root, home, folder } = await withTask();
  assert.equal(files(folder), {}, 'SVC_COMPILE_CACHE=0 wrote nothing');
  const first = await run(root, home, ['task', 'list']);
  assert.is(first.code, 0, first.stderr);
  const task = files(folder).task!;
  assert.ok(task, `a cache for task commands: ${readdirSync(folder).join(', ')}`);
  assert.is(statSync(folder).mode & 0o777, 0o700);
  assert.is(statSync(task).mode & 0o777, 0o600);
  const written = readFileSync(task);
  const second = await run(root, home, ['task', 'list']);
  assert.equal([second.code, second.stdout], [0, first.stdout]);
  assert.ok(readFileSync(task).equals(written), 'the cache read was not written again');
  assert.is((await run(root, home, ['board'])).code, 0);
  assert.equal(Object.keys(files(folder)).sort(), ['board', 'task']);
});

cache('a damaged cache file is rejected and written again; the command runs as without one', async () => {
  const { root, home, folder } = await withTask();
  const clean = await run(root, home, ['task', 'list']);
  const task = files(folder).task!;
  writeFileSync(task, Buffer.alloc(statSync(task).size, 7), { mode: 0o600 });
  const damaged = await run(root, home, ['task', 'list']);
  assert.equal([damaged.code, damaged.stdout, damaged.stderr], [0, clean.stdout, '']);
  assert.not.ok(
    readFileSync(task).every((byte) => byte === 7),
    'the damaged cache was replaced',
  );
});

cache('a cache file or folder that others may write, or a folder that cannot be made, is not used', async () => {
  const { root, home, folder } = await withTask();
  const clean = await run(root, home, ['task', 'list']);
  const task = files(folder).task!;
  const written = readFileSync(task);
  chmodSync(task, 0o666);
  assert.equal((await run(root, home, ['task', 'list'])).stdout, clean.stdout);
  assert.is(
    statSync(files(folder).task!).mode & 0o777,
    0o600,
    'a cache file others may write was not read but written anew',
  );
  assert.ok(readFileSync(files(folder).task!).length > 0 && written.length > 0);

  const open = join(tempRoot('svc-home-'), 'xdg', 'svc', 'v8');
  mkdirSync(open, { recursive: true });
  chmodSync(open, 0o777);
  const shared = await run(root, join(open, '..', '..', '..'), ['task', 'list']);
  assert.equal([shared.code, shared.stdout, files(open)], [0, clean.stdout, {}]);

  const blocked = tempRoot('svc-home-');
  mkdirSync(join(blocked, 'xdg'));
  writeFileSync(join(blocked, 'xdg', 'svc'), 'a file where the folder would go');
  const unmade = await run(root, blocked, ['task', 'list']);
  assert.equal([unmade.code, unmade.stdout, unmade.stderr], [0, clean.stdout, '']);
});

cache('a relative XDG_CACHE_HOME is ignored for ~/.cache', async () => {
  const { root, home } = await withTask();
  const listed = await run(root, home, ['task', 'list'], { XDG_CACHE_HOME: 'relative' });
  assert.is(listed.code, 0, listed.stderr);
  assert.ok(files(join(home, '.cache', 'svc', 'v8')).task);
});

cache.run();
