import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { catchUpRunLog } from '../../lib/adapters/runtime-catchup.js';
import { emptySummary } from '../../lib/adapters/stream-watch.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

// The log of a run that ended after its daemon restarted, completed from its stream (docs/agent-runtimes.md).
const catchUp = suite('adapters.catchUpRunLog');
catchUp.after.each(() => cleanRoots());

const AT = new Date('2026-11-29T10:00:00.000Z');
const HEADER = '=== svc run: task T-1, agent coder, session s1, started 2026-11-29T09:59:00.000Z ===';
const READABLE = ['[session] abc', '[call] svc_status {}', '[result] svc_status ok', '[text] Done.', '[end] ok'];

function logWith(text: string): string {
  const path = join(tempRoot('svc-catchup-'), 's1-1.log');
  writeFileSync(path, text);
  return path;
}

catchUp('the lines the earlier daemon wrote are kept once, the rest follow in order, then the end line', () => {
  const path = logWith(`${HEADER}\n[session] abc\na line of stderr\n[call] svc_status {}\n`);
  catchUpRunLog(path, { readable: READABLE, summary: emptySummary() }, AT);
  assert.is(
    readFileSync(path, 'utf8'),
    `${HEADER}\n[session] abc\na line of stderr\n[call] svc_status {}\n[result] svc_status ok\n[text] Done.\n[end] ok\n` +
      '=== svc run ended: ended after its daemon restarted at 2026-11-29T10:00:00.000Z ===\n',
  );
});

catchUp('a failure the stream tells is on the end line; a log without a newline at its end gets one first', () => {
  const path = logWith(`${HEADER}\npartial stderr`);
  const summary = { ...emptySummary(), denied: [{ tool: 'write_file', message: 'Tool "write_file" not found.' }] };
  catchUpRunLog(path, { readable: ['[denied] write_file: Tool "write_file" not found.'], summary }, AT);
  assert.is(
    readFileSync(path, 'utf8'),
    `${HEADER}\npartial stderr\n[denied] write_file: Tool "write_file" not found.\n` +
      '=== svc run ended: ended after its daemon restarted; permission denied: write_file (Tool "write_file" not ' +
      'found.) at 2026-11-29T10:00:00.000Z ===\n',
  );
});

catchUp('a log that already has its end line, or no log at all, is left as it is', () => {
  const ended = `${HEADER}\n[end] ok\n=== svc run ended: exit code 0 at 2026-11-29T09:59:30.000Z ===\n`;
  const path = logWith(ended);
  catchUpRunLog(path, { readable: READABLE, summary: emptySummary() }, AT);
  assert.is(readFileSync(path, 'utf8'), ended);
  catchUpRunLog(join(tempRoot('svc-catchup-'), 'missing.log'), { readable: READABLE, summary: emptySummary() }, AT);
});

catchUp.run();
