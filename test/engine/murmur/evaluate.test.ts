import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyDecision, evaluateMurmur, type MurmurView } from '../../../lib/engine/murmur/evaluate.js';
import type { MurmurState } from '../../../lib/engine/murmur/state.js';
import type { Murmur } from '../../../lib/org/schema.js';
import { ago, murmur, NOW, state, view } from './murmur-fixtures.js';

// Guard, end and staleness of a review: evaluate-reviews.test.ts.
const evaluate = suite('engine.evaluateMurmur');

evaluate('each trigger kind fires exactly when its condition holds', () => {
  const cases: Array<[string, Murmur['triggers'][number], Partial<MurmurState>, Partial<MurmurView>, string]> = [
    ['queueEmpty after activity', { kind: 'queueEmpty' }, { completionsSinceLastReview: 1 }, {}, 'review:queueEmpty'],
    ['queueEmpty with a ready task', { kind: 'queueEmpty' }, { completionsSinceLastReview: 1 }, { ready: 1 }, 'idle'],
    [
      'queueEmpty with a task in progress',
      { kind: 'queueEmpty' },
      { failuresSinceLastReview: 1 },
      { inProgress: 1 },
      'idle',
    ],
    ['queueEmpty with nothing done since the last review', { kind: 'queueEmpty' }, {}, {}, 'idle'],
    [
      'completionBatch at the threshold',
      { kind: 'completionBatch', threshold: 3 },
      { completionsSinceLastReview: 3 },
      {},
      'review:completionBatch',
    ],
    [
      'completionBatch below it',
      { kind: 'completionBatch', threshold: 3 },
      { completionsSinceLastReview: 2 },
      {},
      'idle',
    ],
    [
      'failureBatch at the threshold',
      { kind: 'failureBatch', threshold: 2 },
      { failuresSinceLastReview: 2 },
      {},
      'review:failureBatch',
    ],
    [
      'failureBatch below it',
      { kind: 'failureBatch', threshold: 2 },
      { failuresSinceLastReview: 1, completionsSinceLastReview: 9 },
      {},
      'idle',
    ],
    ['interval with no review ever', { kind: 'interval', intervalMs: 1000 }, {}, {}, 'review:interval'],
    ['interval elapsed', { kind: 'interval', intervalMs: 1000 }, { lastReviewAt: ago(1000) }, {}, 'review:interval'],
    ['interval not yet elapsed', { kind: 'interval', intervalMs: 1000 }, { lastReviewAt: ago(999) }, {}, 'idle'],
  ];
  for (const [name, trigger, s, v, expected] of cases) {
    const decision = evaluateMurmur(state(s), view(murmur([trigger]), v), NOW);
    assert.is(decision.kind === 'review' ? `review:${decision.trigger}` : decision.kind, expected, name);
  }
});

evaluate('triggers are evaluated in listed order: the first that fires wins', () => {
  const s = state({ completionsSinceLastReview: 5, failuresSinceLastReview: 5 });
  const first = evaluateMurmur(
    s,
    view(
      murmur([
        { kind: 'completionBatch', threshold: 9 },
        { kind: 'failureBatch', threshold: 2 },
        { kind: 'completionBatch', threshold: 1 },
      ]),
    ),
    NOW,
  );
  assert.equal(first.kind === 'review' && first.trigger, 'failureBatch');
  assert.match(
    first.kind === 'review' ? first.reason : '',
    /5 tasks failed or deadlettered since the last review \(threshold 2\)/,
  );
});

evaluate('no review is created while global concurrency is at its maximum', () => {
  const m = murmur([{ kind: 'completionBatch', threshold: 1 }]);
  const s = state({ completionsSinceLastReview: 1 });
  assert.equal(evaluateMurmur(s, view(m, { running: 3, maxConcurrentDispatches: 3 }), NOW).kind, 'held');
  assert.equal(evaluateMurmur(s, view(m, { running: 2, maxConcurrentDispatches: 3 }), NOW).kind, 'review');
});

const apply = suite('engine.applyDecision');

apply('a completed review resets the counters and records lastReviewAt; a new one records its task and trigger', () => {
  const created = applyDecision(
    state({ completionsSinceLastReview: 4, failuresSinceLastReview: 1 }),
    { kind: 'review', trigger: 'completionBatch', reason: 'r' },
    { now: NOW, taskId: 'T-9' },
  );
  assert.equal(created, {
    lastReviewAt: null,
    completionsSinceLastReview: 4,
    failuresSinceLastReview: 1,
    currentReviewTaskId: 'T-9',
    reviewStartedAt: NOW.toISOString(),
    lastTriggeredBy: 'completionBatch',
  });
  const done = applyDecision(
    { ...created, completionsSinceLastReview: 6 },
    { kind: 'completed', taskId: 'T-9' },
    { now: NOW },
  );
  assert.equal(done, {
    lastReviewAt: NOW.toISOString(),
    completionsSinceLastReview: 0,
    failuresSinceLastReview: 0,
    currentReviewTaskId: null,
    reviewStartedAt: null,
    lastTriggeredBy: 'completionBatch',
  });
  const stale = applyDecision(created, { kind: 'stale', taskId: 'T-9', ageMs: 1 }, { now: NOW });
  assert.equal(
    stale,
    { ...created, currentReviewTaskId: null, reviewStartedAt: null },
    'a stale review keeps the counters',
  );
});

evaluate.run();
apply.run();
