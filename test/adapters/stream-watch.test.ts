import { spawn } from 'node:child_process';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RunEvent, StreamParser } from '../../lib/adapters/runtimes/runtime.js';
import { formatRunEvent, readStream, watchStream } from '../../lib/adapters/stream-watch.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// A CLI's stdout followed as a real process writes it: readable run log lines, the summary, the idle end.
const watch = suite('adapters.watchStream');
watch.after.each(cleanRoots);

/** Reads lines of `{"e": <RunEvent>}`: the events are written by the test's child as they are. */
const parser: StreamParser = {
  line(text) {
    const value = JSON.parse(text) as { e?: RunEvent };
    return value.e ? [value.e] : [];
  },
};

function writer(raw: string, lines: unknown[], pauseMs: number) {
  const script = `
    const fs = require('node:fs');
    const lines = ${JSON.stringify(lines.map((line) => JSON.stringify(line)))};
    let i = 0;
    const next = () => { if (i < lines.length) { fs.appendFileSync(${JSON.stringify(raw)}, lines[i++] + '\\n'); setTimeout(next, ${pauseMs}); } };
    next();
  `;
  const out = openSync(raw, 'a');
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', out, 'inherit'] });
}

watch('each event becomes a readable line of the run log and the summary keeps the last usage', async () => {
  const dir = tempRoot();
  const raw = join(dir, 'run.stream.jsonl');
  const log = join(dir, 'run.log');
  writeFileSync(log, '');
  const usage = { inputTokens: 200, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0012 };
  const child = writer(
    raw,
    [
      { e: { kind: 'session', id: 'abc' } },
      { other: 'ignored' },
      { e: { kind: 'tool_call', tool: 'svc_task_complete', args: '{"taskId":"T-1"}' } },
      { e: { kind: 'tool_result', tool: 'svc_task_complete', ok: true, text: '{}' } },
      { e: { kind: 'usage', usage } },
      { e: { kind: 'text', text: 'Done.\u001b[31m' } },
      { e: { kind: 'result', ok: true } },
    ],
    5,
  );
  const seen: string[] = [];
  const watched = watchStream({
    rawPath: raw,
    logPath: log,
    parser,
    idleMs: 60_000,
    pollMs: 20,
    onEvent: (event) => seen.push(event.kind),
  });
  await new Promise((resolve) => child.on('exit', resolve));
  const summary = watched.finish();
  assert.equal(seen, ['session', 'tool_call', 'tool_result', 'usage', 'text', 'result']);
  assert.equal(summary.session, 'abc');
  assert.equal(summary.usage, usage);
  assert.equal(summary.calls, ['svc_task_complete']);
  assert.equal(summary.result, { ok: true });
  const text = readFileSync(log, 'utf8');
  assert.match(text, /^\[call\] svc_task_complete \{"taskId":"T-1"\}$/m);
  assert.match(text, /^\[usage\] 200 in, 40 out, cache 0 read \/ 0 written, cost \$0\.0012$/m);
  assert.not.match(text, /\u001b/, 'no control character reaches the log');
  assert.equal(readStream(parser, readFileSync(raw, 'utf8')).usage, usage, 'the whole file reads the same');
});

watch('only retry notices for idleMs is idle: onIdle fires once', async () => {
  const dir = tempRoot();
  const raw = join(dir, 'run.stream.jsonl');
  const log = join(dir, 'run.log');
  const retry = { e: { kind: 'error', message: 'Reconnecting...', retrying: true } };
  const child = writer(
    raw,
    Array.from({ length: 30 }, () => retry),
    20,
  );
  let idle = 0;
  const watched = watchStream({ rawPath: raw, logPath: log, parser, idleMs: 200, pollMs: 20, onIdle: () => idle++ });
  await within(5000, () => idle > 0, 'the idle end');
  await new Promise((resolve) => child.on('exit', resolve));
  const summary = watched.finish();
  assert.is(idle, 1);
  assert.is(summary.lastError, 'Reconnecting...');
});

watch('formatRunEvent shortens long arguments to one line', () => {
  const line = formatRunEvent({ kind: 'tool_call', tool: 'Bash', args: `{"command":"${'x'.repeat(400)}\\n"}` });
  assert.ok(line!.length < 220, line!);
  assert.match(line!, /…$/);
});

watch.run();
