import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toTerminalText } from '../../lib/core/text.js';

const text = suite('core.toTerminalText');

text('escapes control characters and bidirectional overrides, and leaves other text alone', () => {
  assert.is(toTerminalText('Fix the bug — naïve café 🚀'), 'Fix the bug — naïve café 🚀');
  assert.is(toTerminalText('red \x1b[31malert\x1b[0m'), 'red \\x1b[31malert\\x1b[0m');
  assert.is(toTerminalText('invoice \u202Efdp.exe'), 'invoice \\u202efdp.exe');
  assert.is(toTerminalText('a\u2066b\u2069c\u200f'), 'a\\u2066b\\u2069c\\u200f');
  assert.is(toTerminalText('bell\x07 del\x7f c1\x9b'), 'bell\\x07 del\\x7f c1\\x9b');
  assert.is(toTerminalText('one\ntwo\tthree\r'), 'one\\ntwo\\tthree\\r');
});

text('keeps newlines and tabs of multi-line text, escaping the rest', () => {
  assert.is(
    toTerminalText('# Body\n\n\tcode \x1b]0;title\x07', { multiline: true }),
    '# Body\n\n\tcode \\x1b]0;title\\x07',
  );
});

text.run();
