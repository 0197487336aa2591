import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toRunEnd } from '../../lib/adapters/runtime-end.js';
import { emptySummary, type RunSummary } from '../../lib/adapters/stream-watch.js';

// How a run of an agent CLI ends in the scheduler's words (docs/agent-runtimes.md, "What a run says").
const end = suite('adapters.toRunEnd');
const exit0 = { code: 0, signal: null, hung: false, idleMs: 600_000 };

function summary(change: Partial<RunSummary>): RunSummary {
  return { ...emptySummary(), ...change };
}

end('a clean exit with an ok result is ok (the scheduler then checks the task was finished)', () => {
  assert.equal(toRunEnd(summary({ result: { ok: true } }), exit0), { ok: true, exitCode: 0 });
});

end('a failed result is a failure with the CLI’s own message, whatever the exit code', () => {
  const ended = toRunEnd(summary({ result: { ok: false, message: 'API Error: 500 overloaded' } }), exit0);
  assert.equal(ended, {
    ok: false,
    reason: 'run_failed: API Error: 500 overloaded',
    error: 'API Error: 500 overloaded',
    exitCode: 0,
  });
});

end('a denied tool is a failure naming the tool, before any result', () => {
  const ended = toRunEnd(
    summary({ denied: [{ tool: 'mcp__svc__svc_task_complete', message: 'not granted' }], result: { ok: true } }),
    exit0,
  );
  assert.is(ended.ok, false);
  assert.is(ended.reason, 'tool_denied: permission denied: mcp__svc__svc_task_complete (not granted)');
});

end('a hung run says how long it was silent and the last error it printed', () => {
  const ended = toRunEnd(summary({ lastError: 'Reconnecting... 3/5' }), {
    code: null,
    signal: 'SIGTERM',
    hung: true,
    idleMs: 5000,
  });
  assert.equal(ended, {
    ok: false,
    reason: 'run_hung: no output for 5 s; last: Reconnecting... 3/5',
    error: 'no output for 5 s; last: Reconnecting... 3/5',
    signal: 'SIGTERM',
  });
});

end('an error and no result is a failure with the error; a bare non-zero exit stays ended_without_completion', () => {
  assert.is(toRunEnd(summary({ lastError: 'stream disconnected' }), exit0).reason, 'run_failed: stream disconnected');
  assert.equal(toRunEnd(summary({}), { ...exit0, code: 2 }), {
    ok: false,
    reason: 'ended_without_completion',
    error: 'exit code 2',
    exitCode: 2,
  });
});

end.run();
