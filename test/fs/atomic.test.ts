import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { link, open } from 'node:fs/promises';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEmptyExclusive, createExclusive, isNameTaken } from '../../lib/fs/atomic.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

/** The error sshfs gives the loser of an exclusive create when the winner is on another mount. */
const eperm = () => Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' });

const taken = suite('fs.isNameTaken');
taken.after.each(cleanRoots);

taken('EEXIST is taken without a look', async () => {
  assert.ok(await isNameTaken(Object.assign(new Error('exists'), { code: 'EEXIST' }), `${tempRoot()}/missing`));
});

taken('EPERM is taken when the name exists, and a real failure when it does not', async () => {
  const dir = tempRoot();
  writeFileSync(`${dir}/there`, '');
  assert.ok(await isNameTaken(eperm(), `${dir}/there`));
  assert.not.ok(await isNameTaken(eperm(), `${dir}/missing`));
});

taken('a missing directory (ENOENT) and an error without a code are never taken', async () => {
  const dir = tempRoot();
  writeFileSync(`${dir}/there`, '');
  assert.not.ok(await isNameTaken(Object.assign(new Error('no dir'), { code: 'ENOENT' }), `${dir}/there`));
  assert.not.ok(await isNameTaken(new Error('plain'), `${dir}/there`));
});

const empty = suite('fs.createEmptyExclusive');
empty.after.each(cleanRoots);

empty('creates once; the second create of the name returns false', async () => {
  const path = `${tempRoot()}/7`;
  assert.ok(await createEmptyExclusive(path));
  assert.not.ok(await createEmptyExclusive(path));
});

empty('a lost race answered with EPERM (sshfs) returns false, as EEXIST would', async () => {
  const path = `${tempRoot()}/7`;
  const racing = async (p: string, flags: string) => {
    await (await open(p, flags)).close(); // the other host wins the name...
    throw eperm(); // ...and this mount's kernel answers EPERM
  };
  assert.not.ok(await createEmptyExclusive(path, racing));
  assert.ok(existsSync(path));
});

empty('EPERM for a name that does not exist is a real failure and is thrown', async () => {
  const path = `${tempRoot()}/7`;
  try {
    await createEmptyExclusive(path, async () => Promise.reject(eperm()));
    assert.unreachable('should throw');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'EPERM');
  }
});

const exclusive = suite('fs.createExclusive');
exclusive.after.each(cleanRoots);

exclusive('a link that loses with EPERM returns false and leaves the winner and no temporary', async () => {
  const dir = tempRoot();
  const path = `${dir}/TASK-1.md`;
  const racing = async (from: string, to: string) => {
    writeFileSync(to, `the other host wrote this, not ${from}`);
    throw eperm();
  };
  assert.not.ok(await createExclusive(path, 'mine', racing));
  assert.equal(readdirSync(dir), ['TASK-1.md']);
  assert.match(readFileSync(path, 'utf8'), /the other host/);
});

exclusive('a link made on the server but answered with an error is ours: true, once', async () => {
  const dir = tempRoot();
  const path = `${dir}/TASK-1.md`;
  const madeButFailed = async (from: string, to: string) => {
    await link(from, to);
    throw eperm();
  };
  assert.ok(await createExclusive(path, 'mine', madeButFailed));
  assert.equal(readdirSync(dir), ['TASK-1.md']);
  assert.is(readFileSync(path, 'utf8'), 'mine');
});

exclusive('a temporary lost under the link (ENOENT) is written again', async () => {
  const dir = tempRoot();
  const path = `${dir}/TASK-1.md`;
  let calls = 0;
  const losing = async (from: string, to: string) => {
    if (++calls === 1)
      throw Object.assign(new Error(`ENOENT: no such file or directory, link '${from}' -> '${to}'`), {
        code: 'ENOENT',
      });
    await link(from, to);
  };
  assert.ok(await createExclusive(path, 'mine', losing));
  assert.is(calls, 2);
  assert.equal(readdirSync(dir), ['TASK-1.md']);
});

exclusive('EPERM with nothing at the name is thrown', async () => {
  const dir = tempRoot();
  try {
    await createExclusive(`${dir}/TASK-1.md`, 'mine', async () => Promise.reject(eperm()));
    assert.unreachable('should throw');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'EPERM');
  }
  assert.equal(readdirSync(dir), []);
});

taken.run();
empty.run();
exclusive.run();
