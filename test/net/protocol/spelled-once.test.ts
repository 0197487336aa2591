import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { describeRoutes, HEALTH_PORT_ROUTES, ROUTES } from '../../../lib/net/protocol/routes.js';

// The contract (lib/net/protocol/) is the one place a route path is spelled: every other file of
// lib/ builds its paths from it, and docs/daemon.md's route table lists the same routes.

const lib = new URL('../../../lib', import.meta.url).pathname;
const contract = join(lib, 'net', 'protocol');
const daemonDoc = new URL('../../../docs/daemon.md', import.meta.url).pathname;

const spelled = suite('net.protocol: route paths spelled once');

spelled(
  'no file of lib/ outside the contract has a string literal naming a /v1/ path or another route of the contract',
  () => {
    const offenders = files(lib)
      .filter((file) => !file.startsWith(`${contract}/`))
      .flatMap((file) => findRouteLiterals(file));
    assert.equal(
      offenders,
      [],
      `route paths spelled outside lib/net/protocol/ (build them from the contract):\n${offenders.join('\n')}`,
    );
  },
);

spelled('the search finds a /v1/ path in any quote style, and none in comments', () => {
  const source = [
    "const a = '/v1/tasks';",
    'const b = "/v1/web";',
    'const c = `/v1/spawns/${id}/stop`;',
    'const d = `${base}/v1/tool/invoke`;',
    '// GET /v1/tasks in a comment',
    '/** `POST /v1/web` in a doc comment */',
    "const e = 'GET /healthz';",
    'const f = `http://${host}:${port}/health`;',
    "import { x } from './status.js';",
    "const g = 'tasks/healthy';",
  ].join('\n');
  assert.equal(findRouteLiterals('sample.ts', source), [
    "sample.ts:1: '/v1/tasks'",
    'sample.ts:2: "/v1/web"',
    'sample.ts:3: `/v1/spawns/${',
    'sample.ts:4: }/v1/tool/invoke`',
    "sample.ts:7: 'GET /healthz'",
    'sample.ts:8: }/health`',
  ]);
});

spelled("docs/daemon.md's route table lists exactly the contract's routes", () => {
  const documented = [...new Set(documentedRoutes(readFileSync(daemonDoc, 'utf8')))].sort();
  const declared = Object.values(ROUTES)
    .map((route) => `${route.method} ${route.path.replace(/:\w+/g, '{}')}`)
    .sort();
  assert.equal(
    documented,
    declared,
    'a route in one and not the other: add its row to docs/daemon.md ("Routes") or its entry to lib/net/protocol/routes.ts',
  );
});

spelled('docs/daemon.md names the hook events the contract declares', () => {
  const row = documentedRoutes(readFileSync(daemonDoc, 'utf8'), true).find((route) =>
    route.startsWith('POST /v1/event/'),
  );
  assert.is(row, `POST /v1/event/{${ROUTES.event.choices.join(',')}}`);
});

spelled('the help lists every route of the contract in its order', () => {
  const help = describeRoutes()
    .split(', ')
    .map((route) => route.split('?')[0]!.replace(/\{[^}]*\}/g, '{}'));
  assert.equal(
    help,
    Object.values(ROUTES).map((route) => `${route.method} ${route.path.replace(/:\w+/g, '{}')}`),
  );
});

spelled.run();

// --- internal ---

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The contract's paths outside /v1/ (`/healthz`, `/status`, ...) starting a literal or after a space or quote (not `./status.js`). */
const OTHER_PATHS = new RegExp(
  `(?:^|[\\s(\`'"])(?:${[...Object.values(ROUTES), ...Object.values(HEALTH_PORT_ROUTES)]
    .map((route) => route.path)
    .filter((path) => !path.startsWith('/v1/'))
    .join('|')})(?![\\w-])`,
);

/** `file:line: literal` for each string or template piece of `source` that names a route: `/v1/` or `OTHER_PATHS` (comments are not literals). */
function findRouteLiterals(file: string, source = readFileSync(file, 'utf8')): string[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      if (node.text.includes('/v1/') || OTHER_PATHS.test(node.text)) {
        const line = sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push(`${file.startsWith(lib) ? relative(lib, file) : file}:${line}: ${node.getText()}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/**
 * The `METHOD /path` items of the first column of the route table under "Routes" in docs/daemon.md,
 * the query dropped and each `{parameter}` written `{}` (as is with `raw`).
 */
function documentedRoutes(doc: string, raw = false): string[] {
  const table = doc.slice(doc.indexOf('| Route | Request | Response |'));
  const rows = table.slice(0, table.search(/\n\n/)).split('\n').slice(2);
  return rows.flatMap((row) =>
    [...row.split('|')[1]!.matchAll(/`(GET|POST) ([^`?]+)[^`]*`/g)].map((match) => {
      const path = raw ? match[2]! : match[2]!.replace(/\{[^}]*\}/g, '{}');
      return `${match[1]} ${path}`;
    }),
  );
}
