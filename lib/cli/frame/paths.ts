import { join } from 'node:path';
import { findPackageRoot } from '../../core/package-root.js';

/** The CLI entry (`bin/svc.js`) of this installation, for processes that call svc back. */
export const SVC_BIN = join(findPackageRoot(), 'bin', 'svc.js');
