import { lstatSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeTempDurable } from '../../lib/fs/local-write.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

const temp = suite('fs.writeTempDurable');
temp.after.each(cleanRoots);

for (const local of [true, false]) {
  const way = local ? 'on a local disk' : 'by the network calls';
  temp(`${way}: a new file holds the content, with the mode asked`, async () => {
    const dir = tempRoot();
    await writeTempDurable(`${dir}/a.tmp`, 'héllo\n', { target: `${dir}/a`, local, mode: 0o600 });
    assert.is(readFileSync(`${dir}/a.tmp`, 'utf8'), 'héllo\n');
    assert.is(lstatSync(`${dir}/a.tmp`).mode & 0o777, 0o600);
  });

  temp(`${way}: a name already there, even a symbolic link, is refused and left as it was`, async () => {
    const dir = tempRoot();
    writeFileSync(`${dir}/real`, 'kept');
    writeFileSync(`${dir}/b.tmp`, 'old');
    symlinkSync(`${dir}/real`, `${dir}/c.tmp`);
    for (const name of ['b.tmp', 'c.tmp']) {
      const err = await writeTempDurable(`${dir}/${name}`, 'new', { target: `${dir}/b`, local }).then(
        () => null,
        (e: NodeJS.ErrnoException) => e,
      );
      assert.is(err?.code, 'EEXIST', name);
    }
    assert.is(readFileSync(`${dir}/b.tmp`, 'utf8'), 'old');
    assert.is(readFileSync(`${dir}/real`, 'utf8'), 'kept');
    assert.ok(lstatSync(`${dir}/c.tmp`).isSymbolicLink());
  });

  temp(`${way}: a missing folder fails and leaves nothing behind`, async () => {
    const dir = tempRoot();
    const err = await writeTempDurable(`${dir}/none/d.tmp`, 'x', { target: `${dir}/none/d`, local }).then(
      () => null,
      (e: NodeJS.ErrnoException) => e,
    );
    assert.is(err?.code, 'ENOENT');
    assert.equal(readdirSync(dir), []);
  });
}

temp.run();
