#!/usr/bin/env node
// Runs the command line's bundle, dist/bin/svc.cjs (scripts/bundle-cli.mjs), compiled with V8's
// code cache: the code a command compiled is kept in the user's cache folder and the next command
// of its family starts from it instead of compiling again (docs/architecture.md, "Command line").
// Node 20 has no module.enableCompileCache(), so the cache is kept here. It is a cache only: a
// folder that cannot be made, is another user's or is writable by others, a file that cannot be
// read or written, or code that V8 rejects (another Node, other flags), and the command compiles
// as it would without one. SVC_COMPILE_CACHE=0 turns it off.
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** The command families that get a code cache of their own (the first word); any other word shares one. */
const FAMILIES = new Set([
  'task',
  'board',
  'tool',
  'daemon',
  'events',
  'org',
  'agent',
  'scheduler',
  'web',
  'mcp',
  'doctor',
  'archive',
  'quickstart',
  'migrate',
  'export',
  'import',
]);
/** `svc init` runs once and writes nothing its plan does not name (not even a cache in the home folder). */
const UNCACHED = new Set(['init']);
/** A code cache of an earlier bundle is removed once this old (another checkout may still use it meanwhile). */
const STALE_MS = 24 * 60 * 60 * 1000;

const file = fileURLToPath(new URL('../dist/bin/svc.cjs', import.meta.url));
const source = readFileSync(file, 'utf8');
const hash = /^\/\/ svc-bundle ([0-9a-f]{16})\n/.exec(source)?.[1];
const family = FAMILIES.has(process.argv[2] ?? '') ? process.argv[2] : 'other';
const folder =
  hash && process.env.SVC_COMPILE_CACHE !== '0' && !UNCACHED.has(process.argv[2] ?? '') ? openFolder() : null;
// the key: the bundle, the Node that compiled it and its flags (V8 checks the last two as well)
const name = `${hash}-${process.version}-${process.arch}-${toFlagsKey()}-${family}.v8`;
const cached = folder ? readPrivate(join(folder, name)) : undefined;
const script = new Script(`(function (exports, require, module, __filename, __dirname) {"use strict";${source}\n})`, {
  filename: file,
  ...(cached ? { cachedData: cached } : {}),
});
if (folder && (!cached || script.cachedDataRejected)) process.once('exit', () => keep(folder, name, script));
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
await module.exports.run();

/** The cache folder ($XDG_CACHE_HOME/svc/v8, else ~/.cache/svc/v8), made if missing; null unless it is this user's alone. */
function openFolder() {
  try {
    const base = process.env.XDG_CACHE_HOME?.startsWith('/') ? process.env.XDG_CACHE_HOME : join(homedir(), '.cache');
    const path = join(base, 'svc', 'v8');
    mkdirSync(path, { recursive: true, mode: 0o700 });
    return isPrivate(statSync(path)) ? path : null;
  } catch {
    return null;
  }
}

/** A file's content when it is a regular file of this user's that nobody else may write; else undefined. */
function readPrivate(path) {
  let fd;
  try {
    fd = openSync(path, 'r');
    const stat = fstatSync(fd);
    return stat.isFile() && isPrivate(stat) ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isPrivate(stat) {
  return (process.getuid === undefined || stat.uid === process.getuid()) && (stat.mode & 0o022) === 0;
}

/** Node's flags as part of the key (the daemon runs with its own), as a short hex sum. */
function toFlagsKey() {
  let sum = 0;
  for (const char of `${process.execArgv.join(' ')}|${process.env.NODE_OPTIONS ?? ''}`)
    sum = (sum * 31 + char.charCodeAt(0)) >>> 0;
  return sum.toString(16);
}

/** Writes the code compiled so far (by a new name, then renamed: a reader sees a whole file or none); caches of other bundles past a day go. */
function keep(path, key, compiled) {
  try {
    const temp = join(path, `.${key}.${process.pid}`);
    writeFileSync(temp, compiled.createCachedData(), { mode: 0o600 });
    renameSync(temp, join(path, key));
    for (const other of readdirSync(path)) {
      if (!other.startsWith(`${hash}-`) && Date.now() - statSync(join(path, other)).mtimeMs > STALE_MS)
        rmSync(join(path, other), { force: true });
    }
  } catch {
    // a cache only: the next command compiles again
  }
}
