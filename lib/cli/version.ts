import { readFileSync } from 'node:fs';
import { findPackageRoot } from '../core/package-root.js';

/** The version in the package's own package.json. */
export function readVersion(): string {
  const pkg = JSON.parse(readFileSync(`${findPackageRoot()}/package.json`, 'utf8')) as { version: string };
  return pkg.version;
}
