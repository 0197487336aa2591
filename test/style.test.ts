import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// What STYLE asks that Biome's rules do not hold (biome.json holds the rest: docs/architecture.md,
// "Formatting and linting"): no function of lib/ takes a positional boolean, which reads as a bare
// `true` or `false` at the call (an options object names it), and a thrown value is described in
// one way.
const root = new URL('..', import.meta.url).pathname;

const style = suite('style');

style('no function of lib/ takes a positional boolean', () => {
  const found = filesOf(join(root, 'lib')).flatMap((file) =>
    positionalBooleans(relative(root, file), readFileSync(file, 'utf8')),
  );
  assert.equal(found, [], `take an options object (or a named union) instead:\n${found.join('\n')}`);
});

style('an error is described by describeError and made an Error by toError (lib/core/errors.ts), never inline', () => {
  const inline = /\b([\w$.]+) instanceof Error \? \1(?:\.message)? : (?:new Error\()?String\(\1\)/;
  const found = filesOf(join(root, 'lib'))
    .filter((file) => !file.endsWith('lib/core/errors.ts'))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => ({ file, line, index })),
    )
    .filter(({ line }) => inline.test(line))
    .map(({ file, index }) => `${relative(root, file)}:${index + 1}`);
  assert.equal(found, [], `use describeError(err) or toError(err):\n${found.join('\n')}`);
});

style('no line of lib/ is wider than the print width (biome.json: 120)', () => {
  const width = (JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as { formatter: { lineWidth: number } })
    .formatter.lineWidth;
  const wide = filesOf(join(root, 'lib'))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => ({ file, line, index })),
    )
    .filter(({ line }) => line.length > width)
    .map(({ file, line, index }) => `${relative(root, file)}:${index + 1} (${line.length})`);
  assert.equal(wide, [], `wrap the comment or split the string:\n${wide.join('\n')}`);
});

style('a boolean parameter is found in functions, arrows and methods, and an options object is not', () => {
  const text = [
    'function a(x: string, force: boolean) {}',
    'const b = (dryRun?: boolean | undefined) => dryRun;',
    'class C { m(on: boolean) {} }',
    'function d(options: { force: boolean }) {}',
    'function e({ force }: { force: boolean }) {}',
  ].join('\n');
  assert.equal(positionalBooleans('x.ts', text), ['x.ts:1 force', 'x.ts:2 dryRun', 'x.ts:3 on']);
});

style.run();

// --- internal ---

/** `file:line name` of each parameter typed `boolean` (alone or with undefined) that is not destructured. */
function positionalBooleans(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) {
      for (const param of node.parameters) {
        if (!ts.isIdentifier(param.name) || !param.type) continue;
        if (!/^boolean(\s*\|\s*undefined)?$/.test(param.type.getText(source))) continue;
        found.push(
          `${file}:${source.getLineAndCharacterOfPosition(param.getStart(source)).line + 1} ${param.name.text}`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesOf(path) : path.endsWith('.ts') ? [path] : [];
  });
}
