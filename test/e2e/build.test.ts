// `npm run build` while `svc` commands run: the build is swapped into dist/ (scripts/build.mjs),
// so a command started at any moment of it loads a whole build, old or new.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SVC_BIN } from '../helpers/agents.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `node <args>` in the repo; resolves with its exit code and output. */
function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, args, { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

/** The bundle's chunk files, as the build's metafile names them. */
function chunkNames(): string[] {
  const meta = JSON.parse(readFileSync(`${repo}dist/bin/meta.json`, 'utf8')) as { outputs: Record<string, unknown> };
  return Object.keys(meta.outputs).filter((name) => name.includes('/chunks/')).sort();
}

/**
 * What a command starting now would miss: dist/bin/main.js, or a chunk that it or a chunk it
 * imports (statically or not) names. Empty when the bundle is whole.
 */
function findMissing(): string[] {
  const missing: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return void missing.push(file.slice(repo.length));
    }
    for (const match of text.matchAll(/(?:from\s*|import\s*\(?\s*)"(\.\.?\/[^"]+\.js)"/g)) visit(join(dirname(file), match[1]!));
  };
  visit(`${repo}dist/bin/main.js`);
  return missing;
}

const build = suite('scripts/build.mjs');
build.after.each(cleanRoots);

build('svc commands run in a loop while a build runs all succeed; unchanged chunks keep their names', async () => {
  const root = tempRoot();
  const created = await run([SVC_BIN, 'task', 'create', 'Listed during a build'], { SVC_HOME: root });
  assert.is(created.code, 0, created.out);
  const before = chunkNames();
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
  await Promise.all([['task', 'list'], ['board']].map(async (argv) => {
    while (building) runs.push(await run([SVC_BIN, ...argv], { SVC_HOME: root }));
  }));
  const result = await built;
  clearInterval(watcher);
  assert.is(result.code, 0, result.out);
  assert.equal([...gaps], [], `the bundle was whole at each of ${looks} looks`);
  const failed = runs.filter((r) => r.code !== 0 || /ERR_MODULE_NOT_FOUND|Cannot find module/.test(r.out));
  console.log(`  ${runs.length} commands ran during the build; ${failed.length} failed`);
  assert.equal(failed.map((r) => r.out), []);
  assert.ok(runs.length >= 4, `commands ran during the build (${runs.length})`);
  assert.ok(runs.every((r) => r.out.includes('-001')), 'each command saw the task');
  assert.equal(chunkNames(), before, 'a build of the same sources names its chunks the same');
});

build.run();
