import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readRegularFileSync } from '../../lib/fs/regular-file.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const read = suite('fs.readRegularFileSync');
read.after.each(cleanRoots);

read('reads a regular file and refuses one over the limit as too_large', () => {
  const root = tempRoot();
  const name = join(root, 'a.md');
  writeFileSync(name, 'x'.repeat(100));
  assert.is(readRegularFileSync(name, 100).text.length, 100);
  try {
    readRegularFileSync(name, 99);
    assert.unreachable('should refuse');
  } catch (err) {
    assert.is((err as { code: string }).code, 'too_large');
    assert.match((err as Error).message, /file has 100 bytes; the limit is 99/);
  }
});

read(
  'reads files larger than its shared buffer whole, multibyte text across the edge, and a small one after them exact',
  () => {
    const root = tempRoot();
    const sizes = [64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 300 * 1024];
    for (const size of sizes) {
      const text = `${'é'.repeat(Math.floor(size / 2) - 3)}end\n`;
      writeFileSync(join(root, `${size}.md`), text);
      assert.is(readRegularFileSync(join(root, `${size}.md`), 1024 * 1024).text, text);
    }
    writeFileSync(join(root, 'small.md'), 'short');
    assert.is(readRegularFileSync(join(root, 'small.md'), 1024 * 1024).text, 'short');
    writeFileSync(join(root, 'over.md'), 'y'.repeat(200 * 1024));
    assert.throws(
      () => readRegularFileSync(join(root, 'over.md'), 100 * 1024),
      /file has 204800 bytes; the limit is 102400/,
    );
  },
);

read('says what a symlink points to, and reads nothing through it', () => {
  const root = tempRoot();
  const target = join(root, 'target.md');
  writeFileSync(target, 'behind the link');
  symlinkSync(target, join(root, 'link.md'));
  try {
    readRegularFileSync(join(root, 'link.md'), 1000);
    assert.unreachable('should refuse');
  } catch (err) {
    assert.is((err as { code: string }).code, 'validation_error');
    assert.match(
      (err as Error).message,
      /link\.md: a symbolic link to .*target\.md \(a regular file\), not a regular file/,
    );
  }
});

read.run();
