import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// docs/architecture.md, "Layers": imports only point down the ranks.
const RANK: Record<string, number> = {
  core: 0,
  fs: 1,
  net: 1,
  store: 2,
  org: 2,
  workspace: 2,
  engine: 3,
  notify: 3,
  adapters: 3,
  tools: 3,
  migrate: 3,
  import: 3,
  daemon: 4,
  mcp: 4,
  web: 5,
  cli: 6,
};
const lib = new URL('../lib', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function layerOf(path: string): string {
  return relative(lib, path).split('/')[0]!;
}

test('lib imports point down the layers', () => {
  const wrong: string[] = [];
  for (const file of files(lib)) {
    const from = layerOf(file);
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.\.?\/[^']+)'/g)) {
      const target = join(file, '..', match[1]!);
      const to = layerOf(target);
      if (from === to) continue;
      const ok =
        from === 'plugin'
          ? to === 'core' || to === 'net'
          : from !== 'index.ts' && RANK[to] !== undefined && RANK[from]! > RANK[to]!;
      if (!ok && from !== 'index.ts') wrong.push(`${relative(lib, file)} -> ${match[1]}`);
    }
  }
  assert.equal(wrong, [], `imports against the layers:\n${wrong.join('\n')}`);
});

test('packages have one owner each', () => {
  const owner: Record<string, string> = {
    'write-file-atomic': 'fs',
    'proper-lockfile': 'fs',
    'js-yaml': 'fs',
    json5: 'fs',
    polka: 'daemon',
    cac: 'cli',
  };
  const wrong: string[] = [];
  for (const file of files(lib)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/from '([^.'][^']*)'/g)) {
      const want = owner[match[1]!];
      if (want && layerOf(file) !== want) wrong.push(`${relative(lib, file)} imports ${match[1]}`);
    }
  }
  assert.equal(wrong, []);
});

test.run();
