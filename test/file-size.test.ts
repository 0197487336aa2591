import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// A file of lib/, bench/, test/ or scripts/ past 250 lines is split by what its parts own, and a folder
// of lib/ past 20 files gets sub-folders by concern (docs/architecture.md).
const root = new URL('..', import.meta.url).pathname;
const MAX_LINES = 250;
const MAX_FILES = 20;

const sizes = suite('file sizes');

sizes(`no file of lib/, bench/, test/ or scripts/ is over ${MAX_LINES} lines`, () => {
  const over = ['lib', 'bench', 'test', 'scripts']
    .map((dir) => join(root, dir))
    .flatMap(filesOf)
    .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  assert.equal(over, [], `split these by what their parts own:\n${over.join('\n')}`);
});

sizes(`no folder of lib/ holds more than ${MAX_FILES} .ts files`, () => {
  const over = foldersOf(join(root, 'lib'))
    .map((dir) => ({ dir: relative(root, dir), count: readdirSync(dir).filter((name) => name.endsWith('.ts')).length }))
    .filter(({ count }) => count > MAX_FILES)
    .map(({ dir, count }) => `${dir}: ${count} files`);
  assert.equal(over, [], `give these folders sub-folders by concern:\n${over.join('\n')}`);
});

sizes.run();

// --- internal ---

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesOf(path) : /\.(ts|mjs)$/.test(path) ? [path] : [];
  });
}

function foldersOf(dir: string): string[] {
  return [
    dir,
    ...readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? foldersOf(path) : [];
    }),
  ];
}
