import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(repo, 'bin', 'svc.js');

/** What one run of the built CLI printed, and every source file of the bundle whose code it ran. */
export interface LoadedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** `dist/cli/task/command.js`, `node_modules/zod/v4/core/schemas.js`, ...: the modules of the bundle it evaluated. */
  sources: string[];
}

/**
 * Runs `bin/svc.js <argv>` and records each module of the bundle (dist/bin/svc.cjs) that it
 * evaluates. The bundle keeps a module wrapped, named by its source path, until its first import,
 * and unwraps it by reading that one name (Object.getOwnPropertyNames); a preloaded script records
 * those names. A module the bundle does not wrap runs at every start: `wrappedSources` lists the
 * ones it wraps, so a test can check that a module it expects unloaded is one of them.
 */
export async function runRecordingLoads(
  root: string,
  argv: readonly string[],
  env: Record<string, string> = {},
): Promise<LoadedRun> {
  const trace = join(root, 'load-trace.cjs');
  writeFileSync(
    trace,
    [
      'const names = Object.getOwnPropertyNames;',
      'Object.getOwnPropertyNames = function (object) {',
      '  const found = names(object);',
      "  if (found.length === 1 && /\\/.+\\.(c|m)?js(on)?$/.test(found[0]) && typeof object[found[0]] === 'function') process.stderr.write(`LOADED ${found[0]}\\n`);",
      '  return found;',
      '};',
      // A package the bundle leaves outside (EXTERNAL) is loaded by require at run time: record that too.
      "const Module = require('node:module');",
      'const load = Module._load;',
      'Module._load = function (request, ...rest) {',
      '  if (/^[a-z@][^:]*$/.test(request) && !Module.isBuiltin(request)) process.stderr.write(`LOADED node_modules/${request}/\\n`);',
      '  return load.call(this, request, ...rest);',
      '};',
    ].join('\n'),
  );
  const child = spawn(process.execPath, ['--require', trace, bin, ...argv], {
    env: { ...process.env, SVC_HOME: root, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const sources = stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED '))
    .map((line) => toSource(line.slice('LOADED '.length)));
  return {
    code,
    stdout,
    stderr: stderr
      .split('\n')
      .filter((line) => !line.startsWith('LOADED '))
      .join('\n'),
    sources,
  };
}

/** Every module the bundle keeps wrapped until it is first imported (the others run at every start). */
export function wrappedSources(): string[] {
  const bundle = readFileSync(join(repo, 'dist', 'bin', 'svc.cjs'), 'utf8');
  return [...bundle.matchAll(/__(?:esm|commonJS)\(\{"([^"]+)"\(/g)].map((match) => toSource(match[1]!));
}

/**
 * Packages the bundle does not contain: required from node_modules when a wrapped module that
 * uses them first runs (js-yaml's CommonJS build, docs/architecture.md "Index").
 */
export const EXTERNAL = ['node_modules/js-yaml/'];

/** The packages and modules a command with a daemon up must not load: the store, schemas, YAML, locks. */
export const HEAVY = [
  'node_modules/zod/',
  'node_modules/js-yaml/',
  'node_modules/proper-lockfile/',
  'node_modules/write-file-atomic/',
  'dist/store/commit/store.js',
  'dist/store/commit/protocol.js',
  'dist/fs/frontmatter.js',
  'dist/fs/lock/lock.js',
  'dist/org/',
];

// --- internal ---

/** A module's name in the bundle (its path from the package root at build time) as the path it has in the package. */
function toSource(key: string): string {
  const packages = key.indexOf('node_modules/');
  if (packages >= 0) return key.slice(packages);
  return key.replace(/^(\.\.\/)*\.?dist[^/]*\//, 'dist/');
}
