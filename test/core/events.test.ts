import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EVENT_TYPES } from '../../lib/core/events.js';

const root = new URL('../..', import.meta.url).pathname;
const lib = join(root, 'lib');

const types = suite('core.EVENT_TYPES');

types('docs/events.md lists every declared event type in its table, and no other', () => {
  const documented = documentedTypes(readFileSync(join(root, 'docs/events.md'), 'utf8'));
  const declared = new Set<string>(EVENT_TYPES);
  assert.ok(documented.size > 0, 'docs/events.md has no "## Event types" table');
  assert.equal(
    [...declared].filter((type) => !documented.has(type)),
    [],
    'declared in lib/core/events.ts, missing from docs/events.md',
  );
  assert.equal(
    [...documented].filter((type) => !declared.has(type)),
    [],
    'in docs/events.md, not declared in lib/core/events.ts',
  );
});

types('the doc table is read row by row: a type added to or left out of either side is found', () => {
  const table =
    '## Event types\n\n| Type | Payload |\n| --- | --- |\n| `a.b` | `{x}` |\n| `c_d` | `{}` |\n\n## Next\n\n| `e.f` | no |\n';
  assert.equal(documentedTypes(table), new Set(['a.b', 'c_d']));
});

types(
  'an emitter naming an undeclared type, or a declared type with a payload of another shape, fails the typecheck',
  () => {
    const emit = (event: string) =>
      `import type { EventLog } from '../../lib/store/events/log.js';\ndeclare const log: EventLog;\nexport const emit = () => log.record(new Date(), [${event}]);\n`;
    const errors = typecheck({
      'undeclared.ts': emit(`{ type: 'task.exploded', taskId: 'TASK-2026-11-21-001', actor: 'svc', payload: {} }`),
      'wrong-payload.ts': emit(`{ type: 'daemon.stopped', actor: 'system', payload: { pid: 'one' } }`),
      'missing-field.ts': emit(`{ type: 'task.blocked', taskId: 'TASK-2026-11-21-001', actor: 'svc', payload: {} }`),
      'declared.ts': emit(
        `{ type: 'task.blocked', taskId: 'TASK-2026-11-21-001', actor: 'svc', payload: { reason: 'waits for a key' } }`,
      ),
      'plugin-hook.ts': emit(
        `{ type: \`plugin.\${'agent-end' as 'agent-end' | 'session-end'}\`, actor: 'plugin', payload: { any: 'shape' } }`,
      ),
    });
    assert.match(errors.get('undeclared.ts')?.join('\n') ?? '', /"task\.exploded"/);
    assert.match(errors.get('wrong-payload.ts')?.join('\n') ?? '', /pid/);
    assert.match(errors.get('missing-field.ts')?.join('\n') ?? '', /reason/);
    assert.equal(errors.get('declared.ts'), undefined);
    assert.equal(errors.get('plugin-hook.ts'), undefined);
    assert.equal([...errors.keys()].sort(), ['missing-field.ts', 'undeclared.ts', 'wrong-payload.ts']);
  },
);

types('every event type lib/ emits is declared, and every declared type is emitted somewhere', () => {
  const emitted = emittedTypes();
  const declared = new Set<string>(EVENT_TYPES);
  assert.ok(
    emitted.literals.size >= 30,
    `the scan found only ${emitted.literals.size} emitted types; is it still reading the emitters?`,
  );
  const undeclared = [...emitted.literals]
    .filter(([type]) => !declared.has(type))
    .map(([type, where]) => `${type} (${where})`);
  assert.equal(undeclared, [], 'emitted but not declared in lib/core/events.ts');
  const loose = [...emitted.prefixes]
    .filter(([prefix]) => !EVENT_TYPES.some((type) => type.startsWith(prefix)))
    .map(([prefix, where]) => `${prefix}* (${where})`);
  assert.equal(loose, [], 'emitted from a template no declared type matches');
  const unused = EVENT_TYPES.filter(
    (type) => !emitted.literals.has(type) && ![...emitted.prefixes.keys()].some((prefix) => type.startsWith(prefix)),
  );
  assert.equal(unused, [], 'declared but emitted nowhere in lib/');
});

types(
  'the scan of lib/ reads an event input, a chosen type and a template, and leaves other `type:` keys alone',
  () => {
    const found = emittedIn(
      'x.ts',
      [
        "events.record(now, [{ type: 'task.blocked', taskId, actor, payload }]);",
        "await log.record(now, [{\n  type: 'sla.violation', taskId: id, actor: 'scheduler',\n  payload: {} }]);",
        "[{ type: paused ? 'agent.paused' : 'agent.resumed', actor, payload }]",
        '[{ type: `plugin.${name}`, actor: plugin, payload }]',
        "return { content: [{ type: 'text', text }], isError: true };",
      ].join('\n'),
    );
    assert.equal([...found.literals.keys()].sort(), ['agent.paused', 'agent.resumed', 'sla.violation', 'task.blocked']);
    assert.equal([...found.prefixes.keys()], ['plugin.']);
  },
);

types.run();

// --- internal ---

/** The types in the first column of the table under `## Event types`. */
function documentedTypes(text: string): Set<string> {
  const section = /^## Event types\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1] ?? '';
  return new Set([...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!));
}

/** Typechecks source files placed in test/core/ against lib/ with the project's options; errors by file name. */
function typecheck(sources: Record<string, string>): Map<string, string[]> {
  const config = ts.parseJsonConfigFileContent(
    ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile).config,
    ts.sys,
    root,
  );
  const options: ts.CompilerOptions = {
    ...config.options,
    noEmit: true,
    declaration: false,
    sourceMap: false,
    rootDir: root,
  };
  const files = new Map(Object.entries(sources).map(([name, text]) => [join(root, 'test/core', name), text]));
  const host = ts.createCompilerHost(options);
  const readDisk = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(name);
    return text === undefined ? readDisk(name, language, ...rest) : ts.createSourceFile(name, text, language);
  };
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name);
  host.readFile = (name) => files.get(name) ?? ts.sys.readFile(name);
  const program = ts.createProgram([...files.keys()], options, host);
  const out = new Map<string, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const name = diagnostic.file ? relative(join(root, 'test/core'), diagnostic.file.fileName) : '(options)';
    out.set(name, [...(out.get(name) ?? []), ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')]);
  }
  return out;
}

/** Where each event type lib/ names in an event input is emitted, and the fixed starts of types built from a template. */
function emittedTypes(): { literals: Map<string, string>; prefixes: Map<string, string> } {
  const out = { literals: new Map<string, string>(), prefixes: new Map<string, string>() };
  for (const file of filesOf(lib)) {
    const found = emittedIn(relative(root, file), readFileSync(file, 'utf8'));
    for (const [type, where] of found.literals) if (!out.literals.has(type)) out.literals.set(type, where);
    for (const [prefix, where] of found.prefixes) if (!out.prefixes.has(prefix)) out.prefixes.set(prefix, where);
  }
  return out;
}

/**
 * The `type:` of each object literal that also names an `actor` before it closes (an event input):
 * its quoted types (a ternary names two) and the fixed start of a template.
 */
function emittedIn(where: string, text: string): { literals: Map<string, string>; prefixes: Map<string, string> } {
  const out = { literals: new Map<string, string>(), prefixes: new Map<string, string>() };
  for (const match of text.matchAll(/\btype:\s*([^,\n]+),/g)) {
    const rest = text.slice(match.index + match[0].length, match.index + match[0].length + 300);
    if (!/^[^\]]*?\bactor\b/.test(rest)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    for (const quoted of match[1]!.matchAll(/'([^']+)'/g)) out.literals.set(quoted[1]!, `${where}:${line}`);
    for (const template of match[1]!.matchAll(/`([^`$]*)\$\{/g)) out.prefixes.set(template[1]!, `${where}:${line}`);
  }
  return out;
}

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesOf(path) : path.endsWith('.ts') ? [path] : [];
  });
}
