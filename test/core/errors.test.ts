import { statSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isGone } from '../../lib/core/errors.js';

const gone = suite('core.isGone');

gone(
  'a missing file and a stale network handle (errno 116, which Node cannot name) are gone; other errors are not',
  () => {
    let missing: unknown;
    try {
      statSync('/nonexistent/svc-test');
    } catch (err) {
      missing = err;
    }
    assert.ok(isGone(missing), 'ENOENT');
    const stale = Object.assign(new Error('Unknown system error -116: Unknown system error -116, read'), {
      errno: -116,
      code: 'Unknown system error -116',
      syscall: 'read',
    });
    assert.ok(isGone(stale), 'ESTALE as Node 20 reports it');
    assert.ok(isGone(Object.assign(new Error('stale'), { code: 'ESTALE' })), 'ESTALE by name');
    assert.not.ok(isGone(Object.assign(new Error('denied'), { code: 'EACCES', errno: -13 })), 'EACCES');
    assert.not.ok(isGone(null));
    assert.not.ok(isGone('ENOENT'));
  },
);

gone.run();
