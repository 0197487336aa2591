// `npm run build`: tsc's output, the plugin's tool schemas and the command line's bundle are
// written into .dist-next/ (with the web board's page, dist/web/page/) (beside dist/, so source maps point the same way), then swapped into
// dist/, one build of the tree at a time (.dist-lock), so an `svc` command run meanwhile (while
// `npm test` rebuilds, say) loads either the old build or the new one, never a half-written or
// missing file (docs/architecture.md, "Command line"):
// - dist/bin/main.js, the bundle's entry, is replaced by one rename, after every chunk it imports is
//   in dist/bin/chunks/; a chunk of an earlier build stays there for an hour, for a process that
//   loaded the earlier entry and has yet to import it;
// - every other folder of dist/ is replaced by two renames (the old one out, the new one in).
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a chunk no longer in the bundle is kept for processes that started before the swap. */
const KEEP_OLD_CHUNKS_MS = 60 * 60 * 1000;

const repo = new URL('..', import.meta.url).pathname;
const dist = join(repo, 'dist');
// One build at a time, always in the same folder: the bundle's chunk names hash their sources'
// paths too, so an unchanged chunk keeps its name from build to build.
const next = join(repo, '.dist-next');
const old = join(repo, '.dist-old');
const lock = join(repo, '.dist-lock');
const run = (file, ...args) => execFileSync(process.execPath, [file, ...args], { cwd: repo, stdio: 'inherit' });

await takeLock();
try {
  rmSync(next, { recursive: true, force: true }); // what a build killed midway left
  rmSync(old, { recursive: true, force: true });
  run(createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', next);
  run(join(repo, 'scripts/write-plugin-tools.mjs'), next);
  run(join(repo, 'scripts/bundle-cli.mjs'), next);
  run(join(repo, 'scripts/bundle-web.mjs'), next);
  swapFolders();
  swapBundle();
} finally {
  rmSync(next, { recursive: true, force: true });
  rmSync(old, { recursive: true, force: true });
  unlinkSync(lock);
}

/** Every folder of the new build but bin/, each in place of the old one. */
function swapFolders() {
  mkdirSync(dist, { recursive: true });
  mkdirSync(old, { recursive: true });
  for (const name of readdirSync(next)) {
    if (name === 'bin') continue;
    if (existsSync(join(dist, name))) renameSync(join(dist, name), join(old, name));
    renameSync(join(next, name), join(dist, name));
  }
}

/** The new chunks beside the old ones, then the entry and its metafile; old unused chunks past their hour go. */
function swapBundle() {
  const chunks = join(dist, 'bin/chunks');
  mkdirSync(chunks, { recursive: true });
  const fresh = new Set(readdirSync(join(next, 'bin/chunks')));
  for (const name of fresh) renameSync(join(next, 'bin/chunks', name), join(chunks, name)); // same name, same content
  renameSync(join(next, 'bin/meta.json'), join(dist, 'bin/meta.json'));
  renameSync(join(next, 'bin/main.js'), join(dist, 'bin/main.js'));
  const now = Date.now();
  for (const name of readdirSync(chunks)) {
    if (!fresh.has(name) && now - statSync(join(chunks, name)).mtimeMs > KEEP_OLD_CHUNKS_MS) rmSync(join(chunks, name), { force: true });
  }
}

/** Waits for another build of this tree to finish (its lock names its pid; a dead one's lock is taken over). */
async function takeLock() {
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      return closeSync(fd);
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    const holder = readHolder();
    if (holder === null || isAlive(holder)) await sleep(200);
    else rmSync(lock, { force: true });
  }
}

/** The pid in the lock; null while it is being written (or gone). An empty lock past 10 s is a dead one's. */
function readHolder() {
  try {
    const text = readFileSync(lock, 'utf8').trim();
    if (text) return Number(text);
    return Date.now() - statSync(lock).mtimeMs > 10_000 ? 0 : null;
  } catch {
    return null;
  }
}

function isAlive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch (err) {
    return err.code === 'EPERM' || (err.code === 'ENOENT' && process.platform !== 'linux');
  }
}
