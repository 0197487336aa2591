import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Task } from '../../lib/core/task.js';
import { toResumePrompt } from '../../lib/engine/resume-prompt.js';

// The prompt of a run that continues an agent's session: what happened since, and how to finish now.
const resume = suite('engine.toResumePrompt');

function task(change: Partial<Task>): Task {
  return {
    id: 'TASK-2026-11-29-001',
    title: 'Fix the parser',
    metadata: {},
    ...change,
  } as Task;
}

resume('names the reviewer’s blockers since the earlier run and the new session', () => {
  const prompt = toResumePrompt(
    task({
      gate: {
        workflow: 'impl-review',
        current: 'implement',
        history: [
          { gate: 'implement', outcome: 'complete', actor: 'coder', at: '2026-11-29T01:00:00.000Z' },
          {
            gate: 'review',
            outcome: 'needs_review',
            actor: 'reviewer',
            at: '2026-11-29T01:05:00.000Z',
            blockers: ['handle empty input'],
          },
        ],
      },
    }),
    '',
    { sessionId: 'sess-2', since: '2026-11-29T01:01:00.000Z' },
  );
  assert.match(prompt, /gate review ended needs_review by reviewer: handle empty input/);
  assert.not.match(prompt, /gate implement ended complete/, 'what came before the earlier run is not repeated');
  assert.match(prompt, /svc_task_complete\(\{ taskId: "TASK-2026-11-29-001", sessionId: "sess-2", outcome:/);
});

resume('a failed run, a check that failed and a raised budget are said', () => {
  const prompt = toResumePrompt(
    task({
      metadata: {
        dispatchFailures: 1,
        lastFailureReason: 'run_hung: no output for 600 s',
        lastCheck: { name: 'tests', exitCode: 1, at: '2026-11-29T02:00:00.000Z' },
        budget: { usd: 4 },
      },
    }),
    'Brief.\n\n## Check failed: tests (2026-11-29T02:00:00.000Z)\n\nexit code 1.',
    { sessionId: 's', since: '2026-11-29T01:00:00.000Z' },
  );
  assert.match(prompt, /the check tests failed \(exit code 1\); its report:\n\n## Check failed: tests/);
  assert.match(prompt, /your last run failed: run_hung: no output for 600 s/);
  assert.match(prompt, /the task's budget is now \$4/);
});

resume.run();
