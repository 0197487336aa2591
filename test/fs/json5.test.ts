import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SvcError } from '../../lib/core/errors.js';
import { parseJson5, stringifyJson5 } from '../../lib/fs/json5.js';

const parse = suite('fs.parseJson5');

parse('reads JSON5 and tells comments and plain JSON apart', () => {
  assert.equal(parseJson5('{ a: 1, // one\n}', 'x'), { value: { a: 1 }, hasComments: true, isPlainJson: false });
  assert.equal(parseJson5('{ /* block */ "a": 1 }', 'x').hasComments, true);
  assert.equal(parseJson5('{ "url": "http://h/a//b", \'s\': "/*" }', 'x'), {
    value: { url: 'http://h/a//b', s: '/*' },
    hasComments: false,
    isPlainJson: false,
  });
  assert.equal(parseJson5('{ "a": [1, "\\"//"] }', 'x'), {
    value: { a: [1, '"//'] },
    hasComments: false,
    isPlainJson: true,
  });
});

parse('a syntax error names the source, line and column', () => {
  try {
    parseJson5('{\n  a: 1,\n  b: ]\n}', '/etc/gw.json');
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, SvcError);
    assert.is((err as SvcError).code, 'validation_error');
    assert.is((err as SvcError).message, "/etc/gw.json:3:6: malformed JSON5: invalid character ']'.");
  }
});

parse.run();

const stringify = suite('fs.stringifyJson5');

stringify('plain JSON stays JSON; JSON5 gets unquoted keys and double quotes', () => {
  assert.is(stringifyJson5({ a: { b: 'c' } }, { plainJson: true }), '{\n  "a": {\n    "b": "c"\n  }\n}\n');
  assert.is(
    stringifyJson5({ a: { 'b-c': "it's" } }, { plainJson: false }),
    '{\n  a: {\n    "b-c": "it\'s",\n  },\n}\n',
  );
});

stringify.run();
