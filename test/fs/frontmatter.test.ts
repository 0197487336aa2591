import { createRequire } from 'node:module';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseFrontmatter, stringifyFrontmatter } from '../../lib/fs/frontmatter.js';

const parse = suite('fs.parseFrontmatter');

parse('splits the YAML block from the body and parses it with the core schema', () => {
  const out = parseFrontmatter('---\nid: TASK-1\ncreatedAt: 2026-11-21T10:00:00Z\n---\n\nThe body.\n', 'a.md');
  assert.equal(out, { data: { id: 'TASK-1', createdAt: '2026-11-21T10:00:00Z' }, body: 'The body.\n' });
});

parse('takes a yaml or yml marker, CRLF lines, and a block of comments only as no fields', () => {
  assert.equal(parseFrontmatter('--- yaml\r\na: 1\r\n---\r\nbody', 'b.md'), { data: { a: 1 }, body: 'body' });
  assert.equal(parseFrontmatter('---yml\na: 2\n---\nbody', 'c.md').data, { a: 2 });
  assert.equal(parseFrontmatter('---\n# only a comment\n---\nbody', 'd.md'), { data: {}, body: 'body' });
  assert.equal(parseFrontmatter('---\n---\nbody', 'e.md'), { data: {}, body: 'body' });
});

parse('without a closing line the rest is frontmatter and the body is empty; the first --- line closes', () => {
  assert.equal(parseFrontmatter('---\na: 1\n', 'f.md'), { data: { a: 1 }, body: '' });
  assert.equal(parseFrontmatter('---\na: 1\n---\nb\n---\nc\n', 'g.md'), { data: { a: 1 }, body: 'b\n---\nc\n' });
});

parse(
  'refuses other languages, no frontmatter, YAML that is not a mapping, and malformed YAML, naming the file',
  () => {
    for (const [text, problem] of [
      ['---js\nmodule.exports = {}\n---\n', 'language "js" is not allowed'],
      ['no frontmatter', 'no YAML frontmatter'],
      ['---\n- a\n- b\n---\n', 'not a mapping'],
      ['---\na: [\n---\n', 'malformed YAML'],
    ] as const) {
      try {
        parseFrontmatter(text, 'h.md');
        assert.unreachable(`${problem} was accepted`);
      } catch (err) {
        assert.is((err as { code?: string }).code, 'validation_error');
        assert.match((err as Error).message, `h.md: `);
        assert.match((err as Error).message, problem);
      }
    }
  },
);

parse('reads back what stringifyFrontmatter wrote', () => {
  const data = { id: 'TASK-2', title: '--- not a delimiter', tags: ['a', 'b'] };
  assert.equal(parseFrontmatter(stringifyFrontmatter(data, 'Body\n---\nmore\n'), 'i.md'), {
    data,
    body: 'Body\n---\nmore\n',
  });
});

parse(
  'parses with js-yaml\'s CommonJS build, whose parses leave no garbage for the old generation (bench/README.md, "Memory")',
  () => {
    assert.equal(parseFrontmatter('---\ntitle: x\n---\n', 'e.md').data, { title: 'x' });
    const require = createRequire(import.meta.url);
    const commonJs = require.resolve('js-yaml');
    assert.match(commonJs, /\.cjs\.js$/);
    assert.ok(require.cache[commonJs], 'js-yaml was loaded through require');
  },
);

parse.run();
