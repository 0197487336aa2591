import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveIdArg, toBareSeq } from '../../lib/core/ids.js';
import { SvcError } from '../../lib/core/errors.js';

const TODAY = '2026-11-26';
const seqs = (date: string, ...numbers: number[]) => numbers.map((n) => `TASK-${date}-${String(n).padStart(3, '0')}`);
// Every date starts with 2: a bare `2` or `20` taken as a prefix would match them all.
const IDS = [
  ...seqs('2026-11-25', 1, 2, 20, 200, 300),
  ...seqs(TODAY, 1, 2, 3, 20, 200, 1000),
  ...seqs('2025-02-01', 300, 400),
  ...seqs('2024-02-01', 400),
];

const resolve = suite('core.resolveIdArg');

resolve('a bare number is a sequence of today first: 2, 20, 200, -009 style and 009 style alike', () => {
  for (const arg of ['2', '02', '002', '-2', '-002'])
    assert.is(resolveIdArg(arg, IDS, TODAY), `TASK-${TODAY}-002`, arg);
  for (const arg of ['20', '020', '-020']) assert.is(resolveIdArg(arg, IDS, TODAY), `TASK-${TODAY}-020`, arg);
  assert.is(resolveIdArg('200', IDS, TODAY), `TASK-${TODAY}-200`);
  assert.is(resolveIdArg('1000', IDS, TODAY), `TASK-${TODAY}-1000`);
});

resolve('a sequence today lacks is the most recent date that has it', () => {
  assert.is(resolveIdArg('300', IDS, TODAY), 'TASK-2026-11-25-300');
  assert.is(resolveIdArg('-400', IDS, TODAY), 'TASK-2025-02-01-400');
});

resolve('a bare number is never a date prefix: an unknown sequence is not_found, not ambiguous', () => {
  const err = catchError(() => resolveIdArg('2026', IDS, TODAY));
  assert.is(err.code, 'not_found');
  assert.match(err.message, /No task has the sequence number "2026"/);
  assert.not.match(err.hint ?? '', /Several dates/);
});

resolve('prefixes with a dash or letters still resolve, and several matches list them', () => {
  assert.is(resolveIdArg('2026-11-26-00', seqs(TODAY, 1), TODAY), `TASK-${TODAY}-001`);
  assert.is(resolveIdArg('TASK-2024', IDS, TODAY), 'TASK-2024-02-01-400');
  const err = catchError(() => resolveIdArg('2026-11-25', IDS, TODAY));
  assert.is(err.code, 'ambiguous_id');
  assert.match(err.message, /matches 5 tasks: TASK-2026-11-25-001,/);
  assert.is(resolveIdArg('200', ['200', ...IDS], TODAY), '200', 'an exact id wins');
});

const bare = suite('core.toBareSeq');

bare('reads digits with at most a leading dash, and nothing else', () => {
  assert.equal(['9', '009', '-009', ' 20 ', '2026-11', 'TASK-1', '--9', '9a', ''].map(toBareSeq), [
    9,
    9,
    9,
    20,
    null,
    null,
    null,
    null,
    null,
  ]);
});

function catchError(fn: () => unknown): SvcError {
  try {
    fn();
  } catch (err) {
    if (err instanceof SvcError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

resolve.run();
bare.run();
