import { toPaths } from '../../lib/store/disk/paths.js';
import { initTree } from '../../lib/store/commit/store.js';
import type { GlusterVolume } from '../helpers/gluster.js';

// The GlusterFS end-to-end tests' tree (test/e2e/gluster*.test.ts).

/**
 * A fresh task tree in directory `name` of the volume, made through the test's own mount before any
 * daemon starts (as a team sets the tree up once); returns its tasks/ as that mount shows it.
 */
export async function newTree(vol: GlusterVolume, name: string): Promise<string> {
  const root = `${vol.admin}/${name}`;
  await initTree(toPaths(root));
  return toPaths(root).tasks;
}
