// `npm run build` while `svc` commands run: the build is swapped into dist/ (scripts/build.mjs),
// so a command started at any moment of it loads a whole build, old or new.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SVC_BIN } from '../helpers/agents.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `node <args>` in the repo; resolves with its exit code and output. */
function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, args, {
    cwd: repo,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

/** The bundle's name: the hash on its first line (scripts/bundle-cli.mjs). */
function bundleHash(): string | undefined {
  return /^\/\/ svc-bundle ([0-9a-f]{16})\n/.exec(readFileSync(`${repo}dist/bin/svc.cjs`, 'utf8'))?.[1];
}

/** What a command starting now would miss: dist/bin/svc.cjs, or part of it (its hash names the rest). Empty when the bundle is whole. */
function findMissing(): string[] {
  let text: string;
  try {
    text = readFileSync(`${repo}dist/bin/svc.cjs`, 'utf8');
  } catch {
    return ['dist/bin/svc.cjs'];
  }
  const newline = text.indexOf('\n');
  const hash = createHash('sha256')
    .update(text.slice(newline + 1))
    .digest('hex')
    .slice(0, 16);
  return text.startsWith(`// svc-bundle ${hash}\n`) ? [] : ['dist/bin/svc.cjs (not whole)'];
}

const build = suite('scripts/build.mjs');
build.after.each(cleanRoots);

build('svc commands run in a loop while a build runs all succeed; the same sources build the same bundle', async () => {
  const root = tempRoot();
  const created = await run([SVC_BIN, 'task', 'create', 'Listed during a build'], { SVC_HOME: root });
  assert.is(created.code, 0, created.out);
  const before = bundleHash();
  assert.ok(before, 'the bundle names its hash');
  assert.equal(findMissing(), [], 'the bundle is whole before the build');
  let building = true;
  const built = run(['scripts/build.mjs']).finally(() => (building = false));
  // every 10 ms, the bundle a command would load is whole
  const gaps = new Set<string>();
  let looks = 0;
  const watcher = setInterval(() => {
    looks++;
    for (const file of findMissing()) gaps.add(file);
  }, 10);
  const runs: { code: number | null; out: string }[] = [];
  // two loops, so that some command is starting whenever the build swaps dist/
  await Promise.all(
    [['task', 'list'], ['board']].map(async (argv) => {
      while (building) runs.push(await run([SVC_BIN, ...argv], { SVC_HOME: root }));
    }),
  );
  const result = await built;
  clearInterval(watcher);
  assert.is(result.code, 0, result.out);
  assert.equal([...gaps], [], `the bundle was whole at each of ${looks} looks`);
  const failed = runs.filter((r) => r.code !== 0 || /ERR_MODULE_NOT_FOUND|Cannot find module/.test(r.out));
  console.log(`  ${runs.length} commands ran during the build; ${failed.length} failed`);
  assert.equal(
    failed.map((r) => r.out),
    [],
  );
  assert.ok(runs.length >= 4, `commands ran during the build (${runs.length})`);
  assert.ok(
    runs.every((r) => r.out.includes('-001')),
    'each command saw the task',
  );
  assert.is(bundleHash(), before, 'a build of the same sources is the same bundle');
});

build.run();
