import { CORE_SCHEMA, load } from 'js-yaml';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseYamlSubset } from '../../lib/fs/yaml-subset.js';
import { renderTask } from '../../lib/store/disk/task-file.js';
import type { Task } from '../../lib/core/task.js';

const subset = suite('fs/yaml-subset: the fast reader agrees with js-yaml wherever it answers');

const js = (text: string) => load(text, { schema: CORE_SCHEMA, maxAliases: 0, maxDepth: 32 });

/** Scalars that YAML reads in many ways: numbers, nulls, booleans, quotes, indicators, spaces. */
const SCALARS = [
  'plain text',
  'Bench task 1',
  'TASK-2026-01-01-001',
  'a - b',
  'a,b',
  'a;b',
  'x=1',
  '$x',
  '^x',
  '~x',
  'a~',
  'x?',
  'v1.2.3',
  'path/to/x',
  'f(x)',
  'a+b',
  'null',
  'Null',
  'NULL',
  'nULL',
  '~',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'False',
  'FALSE',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  'NaN',
  'Infinity',
  '.inf',
  '-.inf',
  '.nan',
  '0',
  '-0',
  '+1',
  '7',
  '007',
  '12',
  '-12',
  '123456789012345',
  '1234567890123456',
  '1_000',
  '0x1F',
  '0o17',
  '0b11',
  '1e3',
  '1.5',
  '-1.5',
  '.5',
  '12abc',
  '1-2',
  "'quoted'",
  "'it''s'",
  "'a: b #c'",
  '\'\\n"x"\'',
  "''",
  "'  spaced  '",
  "'unterminated",
  "'a'b'",
  "it's",
  "'x' y",
  '"double"',
  '{}',
  '[]',
  '[a]',
  '{a: 1}',
  '[ ]',
  'a: b',
  'a #b',
  'a#b',
  'trailing ',
  ' lead',
  'é',
  'a\tb',
  '@at',
  'a@b',
  '`tick',
  '&anchor',
  '*alias',
  '!tag',
  '|',
  '>',
  '%x',
  '? x',
  '- x',
  '-',
  ':',
  'a:',
  'a:b',
  '',
];
const KEYS = [
  'id',
  'title',
  'status',
  'x',
  'camelCase',
  'with_under',
  'null',
  'True',
  'false',
  '__proto__',
  'constructor',
  '1a',
  'a b',
  'a-b',
  '"q"',
  "'q'",
];

/** A small deterministic generator (the same documents on every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

/** A document of top-level lines, nested blocks (mappings or sequences, any indent), blank and odd lines. */
function toDocument(next: () => number): string {
  const lines: string[] = [];
  const count = 1 + Math.floor(next() * 6);
  for (let i = 0; i < count; i++) {
    const key = next() < 0.85 ? pick(next, KEYS.slice(0, 5)) + i : pick(next, KEYS);
    const kind = next();
    if (kind < 0.5) lines.push(`${key}: ${pick(next, SCALARS)}`);
    else if (kind < 0.8) {
      lines.push(`${key}:`);
      const indent = ' '.repeat(next() < 0.8 ? 2 : Math.floor(next() * 4));
      const sequence = next() < 0.4;
      for (let j = Math.floor(next() * 4); j > 0; j--)
        lines.push(
          sequence
            ? `${indent}- ${pick(next, SCALARS)}`
            : `${indent}${pick(next, KEYS.slice(0, 5))}${next() < 0.9 ? j : ''}: ${pick(next, SCALARS)}`,
        );
      if (next() < 0.1) lines.push(`${indent}  more: ${pick(next, SCALARS)}`);
    } else
      lines.push(
        pick(next, [
          '',
          '# a comment',
          `${key}:`,
          `${key}:  two spaces`,
          '  continued',
          '---',
          '...',
          `${key} : spaced`,
          `- item`,
        ]),
      );
  }
  return `${next() < 0.3 ? '\n' : ''}${lines.join('\n')}${next() < 0.8 ? '\n' : ''}`;
}

subset('on 20,000 generated documents it returns what js-yaml returns, or leaves the document to it', () => {
  const next = random(22);
  let answered = 0;
  for (let n = 0; n < 20_000; n++) {
    const text = toDocument(next);
    const fast = parseYamlSubset(text);
    if (fast === null) continue;
    answered++;
    let expected: unknown;
    try {
      expected = js(text);
    } catch (err) {
      assert.unreachable(`js-yaml refused what the subset read: ${JSON.stringify(text)} (${String(err)})`);
    }
    assert.equal(fast, expected, JSON.stringify(text));
    assert.is(Object.getPrototypeOf(fast), Object.getPrototypeOf(expected));
  }
  assert.ok(answered > 1_000, `the subset answered ${answered} documents`);
});

subset('each scalar alone: the same value as js-yaml, or none', () => {
  for (const scalar of SCALARS) {
    for (const text of [`key: ${scalar}\n`, `key:\n  - ${scalar}\n`, `key:\n  inner: ${scalar}\n`]) {
      const fast = parseYamlSubset(text);
      if (fast !== null) assert.equal(fast, js(text), JSON.stringify(text));
    }
  }
  assert.equal(parseYamlSubset('a: 1\na: 2\n'), null, 'a repeated key is left to js-yaml (which refuses it)');
  assert.equal(parseYamlSubset('True: x\n'), null, 'a key YAML reads as a boolean is left to js-yaml');
});

subset('the frontmatter svc writes is read by the subset', () => {
  const task = {
    schemaVersion: 1,
    id: 'TASK-2026-11-26-001',
    project: 'default',
    title: "Fix the login page, it's broken: #3",
    status: 'in-progress',
    priority: 'high',
    routing: { agent: 'dev', tags: ['ui', 'auth'] },
    createdAt: '2026-11-26T10:00:00.000Z',
    updatedAt: '2026-11-26T11:00:00.000Z',
    lastTransitionAt: '2026-11-26T11:00:00.000Z',
    createdBy: 'operator',
    dependsOn: ['TASK-2026-11-25-004'],
    metadata: {},
    lease: {
      agent: 'dev',
      sessionId: 'a3c2',
      acquiredAt: '2026-11-26T11:00:00.000Z',
      expiresAt: '2026-11-26T11:30:00.000Z',
    },
  };
  const text = renderTask(task as unknown as Task, 'Body.\n');
  const matter = text.slice(3, text.indexOf('\n---', 3));
  const fast = parseYamlSubset(matter);
  assert.ok(fast, matter);
  assert.equal(fast, js(matter));
  assert.equal(fast!.title, task.title);
});

subset.run();
