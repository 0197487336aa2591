import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dumpYaml, parseFrontmatter } from '../../lib/fs/frontmatter.js';
import { parseYamlSubset } from '../../lib/fs/yaml-subset.js';
import { MAX_YAML_NESTING, toYaml } from '../../lib/fs/yaml-write.js';
import { AWKWARD, KEYS, pick, random, toNesting, toValue } from '../helpers/yaml-values.js';

const write = suite('fs.toYaml');

/** What the frontmatter reader makes of what `toYaml` wrote. */
const readBack = (data: Record<string, unknown>) => parseFrontmatter(`---\n${toYaml(data)}---\n`, 'x.md').data;

write('each awkward string, as a value, a list item, a nested value and a key, reads back as written', () => {
  for (const text of AWKWARD) {
    const data = { value: text, list: [text, text], nested: { inner: text, deeper: [{ text }] }, [text]: text };
    assert.equal(readBack(data), data, JSON.stringify(text));
  }
});

write('on 20,000 generated documents, what it writes reads back equal', () => {
  const next = random(31);
  for (let n = 0; n < 20_000; n++) {
    const data = Object.fromEntries(
      Array.from({ length: 1 + Math.floor(next() * 5) }, (_, i) => [pick(next, KEYS) + i, toValue(next, 4)]),
    );
    const back = readBack(data);
    assert.equal(back, data, toYaml(data));
  }
});

write('numbers read back as the same number, -0, NaN and the infinities included', () => {
  const values = [
    0,
    -0,
    1,
    -1,
    1.5,
    0.1,
    1e21,
    1e-7,
    5e-324,
    2 ** 53,
    2 ** 60,
    Number.MAX_VALUE,
    NaN,
    Infinity,
    -Infinity,
  ];
  const back = readBack({ values }).values as number[];
  values.forEach((value, i) => assert.ok(Object.is(back[i], value), `${value} read back as ${back[i]}`));
});

write('empty strings, lists and mappings, and undefined mapping values left out, as JSON leaves them', () => {
  assert.equal(readBack({ a: '', b: [], c: {}, d: [[], {}, ''], e: { f: undefined } }), {
    a: '',
    b: [],
    c: {},
    d: [[], {}, ''],
    e: {},
  });
  assert.is(toYaml({}), '{}\n');
});

write('every shape of collection nested to the limit reads back; one level more is refused by path', () => {
  const shapes: Record<string, (inner: unknown) => unknown> = {
    mapping: (inner) => ({ k: inner }),
    list: (inner) => [inner],
    'list after an item': (inner) => [1, inner],
    'mapping in a list': (inner) => [{ a: 1, k: inner }],
    'list in a mapping': (inner) => ({ k: [inner] }),
  };
  for (const [name, wrap] of Object.entries(shapes)) {
    for (const leaf of [1, 'a\nb', {}, [1], { z: 'x' }]) {
      let value: unknown = leaf;
      for (;;) {
        const deeper = wrap(value);
        try {
          toYaml({ root: deeper });
        } catch (err) {
          assert.match((err as Error).message, /^`root(\.\w+)*` is nested deeper than 30 levels/, name);
          break;
        }
        value = deeper;
      }
      assert.ok(toNesting({ root: value }) >= MAX_YAML_NESTING - 1, `${name}: ${toNesting({ root: value })} levels`);
      assert.equal(readBack({ root: value }), { root: value }, `${name} at ${toNesting({ root: value })} levels`);
    }
  }
});

write('a value it cannot write is a validation_error naming its path, for every kind', () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  class Point {
    x = 1;
  }
  const cases: [unknown, string][] = [
    [() => 1, '`v` is a function'],
    [[1, undefined], '`v.1` is undefined'],
    [[1, , 3], '`v.1` is undefined'],
    [cycle, '`v.self` contains itself'],
    [new Date(0), '`v` is a Date'],
    [new Map(), '`v` is a Map'],
    [new Point(), '`v` is a Point'],
    [Symbol('s'), '`v` is a symbol'],
    [10n, '`v` is a bigint'],
    [JSON.parse('{"__proto__": 1}'), '`v.__proto__` is a key JavaScript objects cannot keep'],
  ];
  for (const [value, message] of cases) {
    try {
      toYaml({ v: value });
      assert.unreachable(message);
    } catch (err) {
      assert.is((err as { code?: string }).code, 'validation_error', message);
      assert.ok((err as Error).message.startsWith(message), `${(err as Error).message} starts with ${message}`);
    }
  }
  const shared = { a: 1 };
  assert.equal(readBack({ x: shared, y: shared }), { x: shared, y: shared }, 'a value met twice is no cycle');
});

write('no line it writes starts with ---, so the frontmatter never ends early', () => {
  const data = { '---k': 1, '...': 2, '--- x': 3, v: 'x\n---\ny', list: ['---', '--- a'] };
  assert.not.match(toYaml(data), /^---/m);
  assert.equal(readBack(data), data);
});

write('writes what js-yaml wrote for the fields svc writes, so rewritten files do not change', () => {
  const next = random(7);
  const words = ['dev', 'TASK-2026-11-26-001', 'Fix the login page', "it's: #3", 'a - b', 'ui', 'yes', '12', '', 'é'];
  const notes = AWKWARD.filter((text) => !/^(?:\.|-\.|---|\.\.\.)|\n\n$/.test(text));
  for (let n = 0; n < 2_000; n++) {
    const data = {
      schemaVersion: 1,
      id: `TASK-2026-11-${10 + (n % 20)}-00${n % 10}`,
      title: pick(next, words),
      routing: next() < 0.5 ? {} : { agent: pick(next, words), tags: [pick(next, words), pick(next, words)] },
      createdAt: '2026-11-26T10:00:00.000Z',
      dependsOn: next() < 0.5 ? [] : ['TASK-2026-11-25-004'],
      metadata: { dispatchFailures: Math.floor(next() * 5), note: pick(next, notes), nested: { deep: [1, 'a'] } },
      lease: { agent: 'dev', expiresAt: '2026-11-26T11:30:00.000Z', pid: 4242 },
      gate: { workflow: 'review', current: 'code', history: [{ gate: 'code', summary: 'Done.\nTwo lines.' }] },
    };
    assert.is(toYaml(data), dumpYaml(data), JSON.stringify(data.metadata.note));
  }
});

write('the frontmatter of a plain task is read by the fast subset reader', () => {
  const text = toYaml({ id: 'TASK-1', title: "It's: #3", at: '2026-11-26T10:00:00.000Z', tags: ['a'], meta: {} });
  assert.equal(
    parseYamlSubset(text),
    readBack({ id: 'TASK-1', title: "It's: #3", at: '2026-11-26T10:00:00.000Z', tags: ['a'], meta: {} }),
  );
});

write.run();
