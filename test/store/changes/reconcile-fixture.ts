import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createStore, type Store } from '../../../lib/store/commit/store.js';
import { fixedClock, tempRoot } from '../../helpers/root.js';

// The set-up of the reconcile tests (reconcile.test.ts, reconcile-apply.test.ts): a store on a fixed clock, a tree's files.

/** A fresh root with its store initialised on a fixed clock. */
export async function setup(): Promise<{ root: string; store: Store; clock: ReturnType<typeof fixedClock> }> {
  const root = tempRoot();
  const clock = fixedClock();
  const store = createStore({ root, clock });
  await store.init();
  return { root, store, clock };
}

/** Every file of the tree (locks and sequences aside) with its text. */
export function listFiles(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && !path.includes('/.locks/') && !path.includes('/.seq/'))
      out[path] = readFileSync(path, 'utf8');
  }
  return out;
}
