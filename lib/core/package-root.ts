import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The package root (where package.json and templates/ are), found by walking up from this file. */
export function findPackageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'templates'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('svc: cannot find the package root (package.json beside templates/)');
    dir = parent;
  }
  cached = dir;
  return dir;
}

/** The path of a template file. */
export function templatePath(...parts: string[]): string {
  return join(findPackageRoot(), 'templates', ...parts);
}

/** The version in the package's own package.json. */
export function readPackageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(findPackageRoot(), 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/** The command line's entry (`bin/svc.js`) of this installation, for processes that call svc back. */
export function svcBinPath(packageRoot = findPackageRoot()): string {
  return join(packageRoot, 'bin', 'svc.js');
}
