import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(repo, 'bin', 'svc.js');

/** What one run of the built CLI printed, and every source file (from the bundle's metafile) of the code it loaded. */
export interface LoadedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** `dist/cli/task.js`, `node_modules/zod/v4/core/schemas.js`, ...: the sources inside the chunks it loaded. */
  sources: string[];
}

/**
 * Runs `bin/svc.js <argv>` with a loader hook that records each module it loads, then maps the
 * bundle's chunks back to their sources through `dist/bin/meta.json` (written by the build).
 */
export async function runRecordingLoads(root: string, argv: readonly string[], env: Record<string, string> = {}): Promise<LoadedRun> {
  const hook = join(root, 'load-hook.mjs');
  writeFileSync(hook, "export async function load(url, context, next) { if (url.startsWith('file:')) process.stderr.write(`LOADED ${url}\\n`); return next(url, context); }\n");
  const register = join(root, 'load-register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hook}`)});\n`);
  const child = spawn(process.execPath, ['--import', register, bin, ...argv], { env: { ...process.env, SVC_HOME: root, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const urls = stderr.split('\n').filter((line) => line.startsWith('LOADED ')).map((line) => fileURLToPath(line.slice('LOADED '.length)));
  const meta = JSON.parse(readFileSync(join(repo, 'dist', 'bin', 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  const sources = urls.flatMap((path) => {
    const output = meta.outputs[relative(repo, path)];
    return output ? Object.keys(output.inputs) : [relative(repo, path)];
  });
  return { code, stdout, stderr: stderr.split('\n').filter((line) => !line.startsWith('LOADED ')).join('\n'), sources };
}

/** The packages and modules a command with a daemon up must not load: the store, schemas, YAML, locks. */
export const HEAVY = ['node_modules/zod/', 'node_modules/js-yaml/', 'node_modules/proper-lockfile/', 'node_modules/write-file-atomic/', 'dist/store/store.js', 'dist/store/commit.js', 'dist/fs/frontmatter.js', 'dist/fs/lock.js', 'dist/org/'];
