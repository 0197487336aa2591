import { writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createFileCache } from '../../lib/engine/file-cache.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const cache = suite('engine.createFileCache');
cache.after.each(cleanRoots);

cache('reads once, again only when the file changes, and hands the previous value to the loader', async () => {
  const file = `${tempRoot()}/chart.yaml`;
  writeFileSync(file, 'one');
  const seen: (string | undefined)[] = [];
  let loads = 0;
  const c = createFileCache<string>(file, async (previous) => {
    seen.push(previous);
    return `v${++loads}`;
  });
  assert.equal([await c.get(), await c.get(), await c.get()], ['v1', 'v1', 'v1']);
  writeFileSync(file, 'two, longer');
  assert.is(await c.get(), 'v2');
  assert.equal(seen, [undefined, 'v1']);
});

cache('a missing file is a state of its own: loaded once, reloaded when the file appears', async () => {
  const file = `${tempRoot()}/absent.yaml`;
  let loads = 0;
  const c = createFileCache<number>(file, async () => ++loads);
  assert.equal([await c.get(), await c.get()], [1, 1]);
  writeFileSync(file, 'now here');
  assert.is(await c.get(), 2);
});

cache.run();
