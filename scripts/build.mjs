// `npm run build`: tsc's output, the plugin's tool schemas and the command line's bundle are
// written into .dist-next/ (with the web board's page, dist/web/page/) (beside dist/, so source maps point the same way), then swapped into
// dist/, one build of the tree at a time (.dist-lock), so an `svc` command run meanwhile (while
// `npm test` rebuilds, say) loads either the old build or the new one, never a half-written or
// missing file (docs/architecture.md, "Command line"):
// - dist/bin/svc.cjs, the bundle (one file, read whole at start), is replaced by one rename;
// - every other folder of dist/ is replaced by two renames (the old one out, the new one in).
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a file an earlier build left in dist/bin/ (chunks of its bundle) is kept for processes that started before the swap. */
const KEEP_OLD_MS = 60 * 60 * 1000;

const repo = new URL('..', import.meta.url).pathname;
const dist = join(repo, 'dist');
// One build at a time, always in the same folder.
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

/** The new bundle in place of the old one, by one rename; what earlier builds left in dist/bin/ goes after its hour. */
function swapBundle() {
  const bin = join(dist, 'bin');
  mkdirSync(bin, { recursive: true });
  renameSync(join(next, 'bin/svc.cjs'), join(bin, 'svc.cjs'));
  const now = Date.now();
  for (const name of readdirSync(bin)) {
    if (name !== 'svc.cjs' && now - statSync(join(bin, name)).mtimeMs > KEEP_OLD_MS)
      rmSync(join(bin, name), { recursive: true, force: true });
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
