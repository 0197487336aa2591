import { readPackageVersion } from '../../core/package-root.js';

/** The version in the package's own package.json. */
export function readVersion(): string {
  return readPackageVersion();
}
