import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// docs/architecture.md, "Code map": one line per folder of lib/, with the file to open first.
const root = new URL('..', import.meta.url).pathname;
const lib = join(root, 'lib');

const map = suite('code map');

map('every folder of lib/ has its line in the code map, and every line names a folder and a file of it', () => {
  const lines = codeMap(readFileSync(join(root, 'docs/architecture.md'), 'utf8'));
  const folders = foldersOf(lib).map((dir) => `${relative(lib, dir)}/`);
  const missing = folders.filter((folder) => !lines.has(folder));
  const stale = [...lines]
    .filter(([folder, first]) => !existsSync(join(lib, folder, first)))
    .map(([folder, first]) => `${folder}${first}`);
  assert.equal(missing, [], `folders without a line in docs/architecture.md, "Code map":\n${missing.join('\n')}`);
  assert.equal(stale, [], `lines naming a folder or file that is gone:\n${stale.join('\n')}`);
});

map('a line is read as its folder and its first file', () => {
  const text =
    '## Code map\n\n| folder | owns | open first |\n|---|---|---|\n| `a/` | x | `b.ts` |\n| `a/c/` | y | `d.ts` |\n\n## Next\n| `e/` | z | `f.ts` |\n';
  assert.equal(
    [...codeMap(text)],
    [
      ['a/', 'b.ts'],
      ['a/c/', 'd.ts'],
    ],
  );
});

map.run();

// --- internal ---

/** The rows of the "Code map" section: folder (with its trailing slash) to the file to open first. */
function codeMap(text: string): Map<string, string> {
  const section = text.split(/^## /m).find((part) => part.startsWith('Code map\n')) ?? '';
  const rows = [...section.matchAll(/^\| `([^`]+\/)` \|.*\| `([^`]+)` \|$/gm)];
  return new Map(rows.map((row) => [row[1]!, row[2]!]));
}

/** The folders under `dir` that hold files (lib/ itself holds none). */
function foldersOf(dir: string): string[] {
  const subs = readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isDirectory());
  const own = readdirSync(dir).some((name) => name.endsWith('.ts')) ? [dir] : [];
  return [...own, ...subs.flatMap(foldersOf)];
}
