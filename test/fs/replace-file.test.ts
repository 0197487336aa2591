import { lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { replaceFileDurable } from '../../lib/fs/replace-file.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const replace = suite('fs.replaceFileDurable');
replace.after.each(cleanRoots);

replace('replaces a symlink planted at the name instead of writing through it', async () => {
  const root = tempRoot();
  const outside = join(root, 'outside.txt');
  writeFileSync(outside, 'precious\n');
  const name = join(root, 'TASK-1.md');
  symlinkSync(outside, name);
  await replaceFileDurable(name, 'new content\n');
  assert.is(readFileSync(outside, 'utf8'), 'precious\n');
  assert.ok(lstatSync(name).isFile());
  assert.is(readFileSync(name, 'utf8'), 'new content\n');
});

replace('keeps the mode of the regular file it replaces', async () => {
  const root = tempRoot();
  const name = join(root, 'TASK-1.md');
  writeFileSync(name, 'old\n', { mode: 0o600 });
  await replaceFileDurable(name, 'new\n');
  assert.is(statSync(name).mode & 0o777, 0o600);
  assert.is(readFileSync(name, 'utf8'), 'new\n');
});

replace.run();
