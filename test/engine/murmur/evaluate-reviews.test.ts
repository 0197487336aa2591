import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { evaluateMurmur } from '../../../lib/engine/murmur/evaluate.js';
import { ago, murmur, NOW, state, view } from './murmur-fixtures.js';

// A review's guard, end and staleness.
const evaluate = suite('engine.evaluateMurmur');

evaluate('a review in progress blocks every trigger (the guard)', () => {
  const s = state({
    currentReviewTaskId: 'T-1',
    reviewStartedAt: ago(10),
    completionsSinceLastReview: 50,
    lastReviewAt: null,
  });
  for (const reviewStatus of ['ready', 'in-progress', 'blocked', 'deadletter'] as const) {
    assert.equal(
      evaluateMurmur(
        s,
        view(
          murmur([
            { kind: 'completionBatch', threshold: 1 },
            { kind: 'interval', intervalMs: 1 },
          ]),
          { reviewStatus },
        ),
        NOW,
      ),
      { kind: 'reviewing', taskId: 'T-1' },
    );
  }
});

evaluate(
  'the review ends when its task is done, cancelled or gone; an unknown task is waited for while the index loads',
  () => {
    const s = state({ currentReviewTaskId: 'T-1', reviewStartedAt: ago(10) });
    const m = murmur([{ kind: 'queueEmpty' }]);
    assert.equal(evaluateMurmur(s, view(m, { reviewStatus: 'done' }), NOW), { kind: 'completed', taskId: 'T-1' });
    assert.equal(evaluateMurmur(s, view(m, { reviewStatus: 'cancelled' }), NOW), {
      kind: 'ended',
      taskId: 'T-1',
      why: 'cancelled',
    });
    assert.equal(evaluateMurmur(s, view(m, { reviewStatus: undefined }), NOW), {
      kind: 'ended',
      taskId: 'T-1',
      why: 'missing',
    });
    assert.equal(evaluateMurmur(s, view(m, { reviewStatus: undefined, indexLoaded: false }), NOW), {
      kind: 'reviewing',
      taskId: 'T-1',
    });
  },
);

evaluate('a review older than reviewTimeoutMs is stale', () => {
  const m = murmur([{ kind: 'queueEmpty' }], 5000);
  assert.equal(
    evaluateMurmur(
      state({ currentReviewTaskId: 'T-1', reviewStartedAt: ago(5000) }),
      view(m, { reviewStatus: 'in-progress' }),
      NOW,
    ),
    { kind: 'stale', taskId: 'T-1', ageMs: 5000 },
  );
  assert.is(
    evaluateMurmur(
      state({ currentReviewTaskId: 'T-1', reviewStartedAt: ago(4999) }),
      view(m, { reviewStatus: 'in-progress' }),
      NOW,
    ).kind,
    'reviewing',
  );
});

evaluate(
  'after a review went stale, the next waits reviewTimeoutMs per stale review still open, from the last expiry',
  () => {
    const m = murmur([{ kind: 'interval', intervalMs: 1 }], 5000);
    const s = state({ lastReviewAt: ago(600_000) });
    const one = (lastStaleAt: number, staleReviews = ['T-1']) =>
      evaluateMurmur(s, view(m, { staleReviews, lastStaleAt }), NOW);
    const deferred = one(NOW.getTime() - 4999);
    assert.equal(deferred.kind, 'deferred');
    assert.equal(deferred.kind === 'deferred' && [deferred.trigger, deferred.until, deferred.stale], [
      'interval',
      new Date(NOW.getTime() + 1).toISOString(),
      ['T-1'],
    ]);
    assert.is(one(NOW.getTime() - 5000).kind, 'review', 'one reviewTimeoutMs after the stale one');
    assert.is(one(NOW.getTime() - 5000, ['T-1', 'T-2']).kind, 'deferred', 'two still open: twice as long');
    assert.is(one(NOW.getTime() - 10_000, ['T-1', 'T-2']).kind, 'review');
    assert.is(
      evaluateMurmur(s, view(m, { staleReviews: [], lastStaleAt: NOW.getTime() }), NOW).kind,
      'review',
      'none open: no wait',
    );
  },
);

evaluate.run();
