import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// lib/store/changes owns every change of a task (docs/architecture.md, "Commit protocol"): the rest
// of lib calls its named functions and never writes a change of its own beside them.
const lib = new URL('../../../lib', import.meta.url).pathname;

/** The write functions of the commit protocol (lib/store/commit/protocol.ts and create.ts). */
const WRITERS = ['commitTask', 'createTaskFile', 'moveToConflicts'];

const owner = suite('store.changes owner');

owner('no file of lib/ outside lib/store/ calls or imports a write function of the commit protocol', () => {
  const offenders = findOffenders(
    sourcesOf(lib, (file) => !file.startsWith('store/')),
    writerUse,
  );
  assert.equal(
    offenders,
    [],
    `write functions of the commit protocol used outside lib/store/ (call a function of lib/store/changes instead):\n${offenders.join('\n')}`,
  );
});

owner('no file of lib/ outside lib/store/changes/ commits a change to a task through the store', () => {
  const offenders = findOffenders(
    sourcesOf(lib, (file) => !file.startsWith('store/changes/')),
    storeCommit,
  );
  assert.equal(
    offenders,
    [],
    `changes of a task written outside lib/store/changes/ (move them there as named functions):\n${offenders.join('\n')}`,
  );
});

owner('an offender is shown with its file, line and text', () => {
  const sources = new Map([
    ['engine/x.ts', "import { commitTask } from '../store/commit/protocol.js';\nconst a = 1;\n"],
    ['daemon/y.ts', "const result = await store.commit(id, (current) => null, 'me');\n"],
    ['cli/z.ts', "import { claimTask } from '../store/changes/work.js';\n"],
  ]);
  assert.equal(findOffenders(sources, writerUse), [
    "engine/x.ts:1: import { commitTask } from '../store/commit/protocol.js';",
  ]);
  assert.equal(findOffenders(sources, storeCommit), [
    "daemon/y.ts:1: const result = await store.commit(id, (current) => null, 'me');",
  ]);
});

owner.run();

// --- internal ---

const writerUse = new RegExp(`\\b(${WRITERS.join('|')})\\b`);
const storeCommit = /\.commit\(/;

/** The text of every .ts file under `dir` whose path (relative to `dir`) passes `keep`. */
function sourcesOf(dir: string, keep: (file: string) => boolean): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && keep(relative(dir, path)))
        out.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

/** Each line matching `pattern`, as `file:line: text`. */
function findOffenders(sources: Map<string, string>, pattern: RegExp): string[] {
  return [...sources]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .flatMap(([file, text]) =>
      text.split('\n').flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
}
