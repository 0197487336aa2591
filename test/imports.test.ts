import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// No import circles among the files of lib/ and bench/: a file's imports (types and dynamic imports
// included) never lead back to it. A type both sides need lives in the file that owns it.
const root = new URL('..', import.meta.url).pathname;

const imports = suite('imports');

imports('no file of lib/ or bench/ imports itself through other files', () => {
  const graph = importGraph([join(root, 'lib'), join(root, 'bench')]);
  const circles = findCircles(graph).map((files) => files.map((file) => relative(root, file)).join(' -> '));
  assert.equal(circles, [], `import circles:\n${circles.join('\n')}`);
});

imports('no folder of lib/ imports itself through other folders', () => {
  const graph = folderGraph(importGraph([join(root, 'lib')]));
  const circles = findCircles(graph).map((folders) => folders.map((folder) => relative(root, folder)).join(' -> '));
  assert.equal(circles, [], `import circles between folders:\n${circles.join('\n')}`);
});

imports('a circle is found through type imports, re-exports and dynamic imports', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', ['a.ts', 'd.ts']],
    ['e.ts', []],
  ]);
  assert.equal(findCircles(graph), [['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
  assert.equal(
    findCircles(
      folderGraph(
        new Map([
          ['x/a.ts', ['y/b.ts']],
          ['y/b.ts', ['y/c.ts']],
          ['y/c.ts', ['x/d.ts']],
          ['x/d.ts', []],
        ]),
      ),
    ),
    [['x', 'y']],
  );
  assert.equal(
    importsOf(
      "import type { A } from './a.js';\nexport { b } from './b.js';\nconst c = await import('./c.js');\nimport x from 'node:fs';\n",
    ),
    ['./a.js', './b.js', './c.js'],
  );
});

imports.run();

// --- internal ---

/** Every .ts file under `dirs`, with the files of those dirs it imports. */
function importGraph(dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap(filesOf)) {
    const targets = importsOf(readFileSync(file, 'utf8'))
      .map((spec) => join(file, '..', spec).replace(/\.js$/, '.ts'))
      .filter((target) => existsSync(target));
    graph.set(file, targets);
  }
  return graph;
}

/** The graph of folders: a folder imports another when one of its files imports a file of the other. */
function folderGraph(files: Map<string, string[]>): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = dirname(file);
    const edges = graph.get(from) ?? new Set<string>();
    for (const target of targets) if (dirname(target) !== from) edges.add(dirname(target));
    graph.set(from, edges);
  }
  return new Map([...graph].map(([folder, edges]) => [folder, [...edges]]));
}

/** The relative module specifiers of a source text: static, type-only, re-exports and dynamic. */
function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*)'(\.\.?\/[^']+)'/g)].map((match) => match[1]!);
}

/** The strongly connected groups of more than one file (or a file importing itself), each sorted (Tarjan). */
function findCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || graph.get(node)?.includes(node)) circles.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesOf(path) : path.endsWith('.ts') ? [path] : [];
  });
}
