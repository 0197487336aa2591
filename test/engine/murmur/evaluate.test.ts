import { readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyDecision, evaluateMurmur, type MurmurView } from '../../../lib/engine/murmur/evaluate.js';
import { buildReview, isReviewTitle } from '../../../lib/engine/murmur/review.js';
import { newMurmurState, readMurmurState, writeMurmurState, type MurmurState } from '../../../lib/engine/murmur/state.js';
import { membershipOf, teamsOfTask } from '../../../lib/engine/murmur/team-tasks.js';
import { validateOrg } from '../../../lib/org/org-chart.js';
import type { Murmur, Team } from '../../../lib/org/schema.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const murmur = (triggers: Murmur['triggers'], reviewTimeoutMs = 60_000): Murmur => ({ triggers, context: [], reviewTimeoutMs });
const view = (m: Murmur, extra: Partial<MurmurView> = {}): MurmurView => ({
  murmur: m, ready: 0, inProgress: 0, running: 0, maxConcurrentDispatches: 3, reviewStatus: undefined, indexLoaded: true, ...extra,
});
const state = (extra: Partial<MurmurState> = {}): MurmurState => ({ ...newMurmurState(), ...extra });
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

const evaluate = suite('engine.evaluateMurmur');

evaluate('each trigger kind fires exactly when its condition holds', () => {
  const cases: Array<[string, Murmur['triggers'][number], Partial<MurmurState>, Partial<MurmurView>, string]> = [
    ['queueEmpty after activity', { kind: 'queueEmpty' }, { completionsSinceLastReview: 1 }, {}, 'review:queueEmpty'],
    ['queueEmpty with a ready task', { kind: 'queueEmpty' }, { completionsSinceLastReview: 1 }, { ready: 1 }, 'idle'],
    ['queueEmpty with a task in progress', { kind: 'queueEmpty' }, { failuresSinceLastReview: 1 }, { inProgress: 1 }, 'idle'],
    ['queueEmpty with nothing done since the last review', { kind: 'queueEmpty' }, {}, {}, 'idle'],
    ['completionBatch at the threshold', { kind: 'completionBatch', threshold: 3 }, { completionsSinceLastReview: 3 }, {}, 'review:completionBatch'],
    ['completionBatch below it', { kind: 'completionBatch', threshold: 3 }, { completionsSinceLastReview: 2 }, {}, 'idle'],
    ['failureBatch at the threshold', { kind: 'failureBatch', threshold: 2 }, { failuresSinceLastReview: 2 }, {}, 'review:failureBatch'],
    ['failureBatch below it', { kind: 'failureBatch', threshold: 2 }, { failuresSinceLastReview: 1, completionsSinceLastReview: 9 }, {}, 'idle'],
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
  const first = evaluateMurmur(s, view(murmur([{ kind: 'completionBatch', threshold: 9 }, { kind: 'failureBatch', threshold: 2 }, { kind: 'completionBatch', threshold: 1 }])), NOW);
  assert.equal(first.kind === 'review' && first.trigger, 'failureBatch');
  assert.match(first.kind === 'review' ? first.reason : '', /5 tasks failed or deadlettered since the last review \(threshold 2\)/);
});

evaluate('a review in progress blocks every trigger (the guard)', () => {
  const s = state({ currentReviewTaskId: 'T-1', reviewStartedAt: ago(10), completionsSinceLastReview: 50, lastReviewAt: null });
  for (const reviewStatus of ['ready', 'in-progress', 'blocked', 'deadletter'] as const) {
    assert.equal(evaluateMurmur(s, view(murmur([{ kind: 'completionBatch', threshold: 1 }, { kind: 'interval', intervalMs: 1 }]), { reviewStatus }), NOW), { kind: 'reviewing', taskId: 'T-1' });
  }
});

evaluate('the review ends when its task is done, cancelled or gone; an unknown task is waited for while the index loads', () => {
  const s = state({ currentReviewTaskId: 'T-1', reviewStartedAt: ago(10) });
  const m = murmur([{ kind: 'queueEmpty' }]);
  assert.equal(evaluateMurmur(s, view(m, { reviewStatus: 'done' }), NOW), { kind: 'completed', taskId: 'T-1' });
  assert.equal(evaluateMurmur(s, view(m, { reviewStatus: 'cancelled' }), NOW), { kind: 'ended', taskId: 'T-1', why: 'cancelled' });
  assert.equal(evaluateMurmur(s, view(m, { reviewStatus: undefined }), NOW), { kind: 'ended', taskId: 'T-1', why: 'missing' });
  assert.equal(evaluateMurmur(s, view(m, { reviewStatus: undefined, indexLoaded: false }), NOW), { kind: 'reviewing', taskId: 'T-1' });
});

evaluate('a review older than reviewTimeoutMs is stale', () => {
  const m = murmur([{ kind: 'queueEmpty' }], 5000);
  assert.equal(evaluateMurmur(state({ currentReviewTaskId: 'T-1', reviewStartedAt: ago(5000) }), view(m, { reviewStatus: 'in-progress' }), NOW), { kind: 'stale', taskId: 'T-1', ageMs: 5000 });
  assert.is(evaluateMurmur(state({ currentReviewTaskId: 'T-1', reviewStartedAt: ago(4999) }), view(m, { reviewStatus: 'in-progress' }), NOW).kind, 'reviewing');
});

evaluate('no review is created while global concurrency is at its maximum', () => {
  const m = murmur([{ kind: 'completionBatch', threshold: 1 }]);
  const s = state({ completionsSinceLastReview: 1 });
  assert.equal(evaluateMurmur(s, view(m, { running: 3, maxConcurrentDispatches: 3 }), NOW).kind, 'held');
  assert.equal(evaluateMurmur(s, view(m, { running: 2, maxConcurrentDispatches: 3 }), NOW).kind, 'review');
});

evaluate('after a review went stale, the next waits reviewTimeoutMs per stale review still open, from the last expiry', () => {
  const m = murmur([{ kind: 'interval', intervalMs: 1 }], 5000);
  const s = state({ lastReviewAt: ago(600_000) });
  const one = (lastStaleAt: number, staleReviews = ['T-1']) => evaluateMurmur(s, view(m, { staleReviews, lastStaleAt }), NOW);
  const deferred = one(NOW.getTime() - 4999);
  assert.equal(deferred.kind, 'deferred');
  assert.equal(deferred.kind === 'deferred' && [deferred.trigger, deferred.until, deferred.stale], ['interval', new Date(NOW.getTime() + 1).toISOString(), ['T-1']]);
  assert.is(one(NOW.getTime() - 5000).kind, 'review', 'one reviewTimeoutMs after the stale one');
  assert.is(one(NOW.getTime() - 5000, ['T-1', 'T-2']).kind, 'deferred', 'two still open: twice as long');
  assert.is(one(NOW.getTime() - 10_000, ['T-1', 'T-2']).kind, 'review');
  assert.is(evaluateMurmur(s, view(m, { staleReviews: [], lastStaleAt: NOW.getTime() }), NOW).kind, 'review', 'none open: no wait');
});

const apply = suite('engine.applyDecision');

apply('a completed review resets the counters and records lastReviewAt; a new one records its task and trigger', () => {
  const created = applyDecision(state({ completionsSinceLastReview: 4, failuresSinceLastReview: 1 }), { kind: 'review', trigger: 'completionBatch', reason: 'r' }, NOW, 'T-9');
  assert.equal(created, { lastReviewAt: null, completionsSinceLastReview: 4, failuresSinceLastReview: 1, currentReviewTaskId: 'T-9', reviewStartedAt: NOW.toISOString(), lastTriggeredBy: 'completionBatch' });
  const done = applyDecision({ ...created, completionsSinceLastReview: 6 }, { kind: 'completed', taskId: 'T-9' }, NOW);
  assert.equal(done, { lastReviewAt: NOW.toISOString(), completionsSinceLastReview: 0, failuresSinceLastReview: 0, currentReviewTaskId: null, reviewStartedAt: null, lastTriggeredBy: 'completionBatch' });
  const stale = applyDecision(created, { kind: 'stale', taskId: 'T-9', ageMs: 1 }, NOW);
  assert.equal(stale, { ...created, currentReviewTaskId: null, reviewStartedAt: null }, 'a stale review keeps the counters');
});

const file = suite('engine.murmurState');
file.after.each(cleanRoots);

file('writes exactly the six fields and reads them back; a missing file is a fresh state', async () => {
  const paths = toPaths(tempRoot());
  assert.equal(await readMurmurState(paths, 'core', () => assert.unreachable('no warning')), newMurmurState());
  const s = state({ lastReviewAt: NOW.toISOString(), completionsSinceLastReview: 2, currentReviewTaskId: 'T-1', reviewStartedAt: NOW.toISOString(), lastTriggeredBy: 'interval' });
  await writeMurmurState(paths, 'core', s);
  assert.equal(Object.keys(JSON.parse(readFileSync(paths.murmurFile('core'), 'utf8'))), ['lastReviewAt', 'completionsSinceLastReview', 'failuresSinceLastReview', 'currentReviewTaskId', 'reviewStartedAt', 'lastTriggeredBy']);
  assert.equal(await readMurmurState(paths, 'core', () => undefined), s);
});

file('a field of the wrong type takes its fresh value with a warning', async () => {
  const paths = toPaths(tempRoot());
  await writeMurmurState(paths, 'core', newMurmurState());
  writeFileSync(paths.murmurFile('core'), JSON.stringify({ completionsSinceLastReview: 'many', failuresSinceLastReview: 2 }));
  const warnings: string[] = [];
  assert.equal(await readMurmurState(paths, 'core', (line) => warnings.push(line)), state({ failuresSinceLastReview: 2 }));
  assert.match(warnings.join('\n'), /field completionsSinceLastReview has the wrong type/);
});

const review = suite('engine.buildReview');
review.after.each(cleanRoots);

review('routes to the orchestrator with metadata.murmur and the context sections in order', async () => {
  const root = tempRoot();
  const paths = toPaths(root);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(paths.org, { recursive: true });
  writeFileSync(paths.orgDoc('vision'), 'Ship a calm product.\n');
  const team = { id: 'core', name: 'Core', members: ['dev'], orchestrator: 'lead', murmur: { triggers: [{ kind: 'queueEmpty' as const }], context: ['taskSummary', 'vision', 'roadmap'], reviewTimeoutMs: 1 } } satisfies Team;
  const input = await buildReview({
    paths, team, trigger: 'completionBatch', reason: '3 tasks completed', state: state({ completionsSinceLastReview: 3 }),
    summary: () => ({ completed: [{ id: 'T-1', title: 'Fix login', status: 'done', dispatchFailures: 0 }], failing: [], open: { ready: 1, inProgress: 0, blocked: 0 } }),
  });
  assert.is(input.title, 'Murmur review: core (completionBatch)');
  assert.ok(isReviewTitle(input.title, 'core') && !isReviewTitle(input.title, 'cor'));
  assert.equal(input.routing, { agent: 'lead' });
  assert.equal(input.metadata, { murmur: { team: 'core', trigger: 'completionBatch' } });
  const body = input.body ?? '';
  assert.ok(body.indexOf('## Task summary') < body.indexOf('## Vision'), body);
  assert.match(body, /- T-1 "Fix login" \(done\)/);
  assert.match(body, /3 completed, 0 failed/);
  assert.match(body, /## Vision\n\nShip a calm product\./);
  assert.not.match(body, /## Roadmap/, 'a missing document is left out');
  assert.not.match(body, /went stale/);
});

review('names the earlier reviews that went stale and are still open', async () => {
  const paths = toPaths(tempRoot());
  const team = { id: 'core', name: 'Core', members: ['dev'], orchestrator: 'lead', murmur: { triggers: [{ kind: 'queueEmpty' as const }], context: [], reviewTimeoutMs: 1 } } satisfies Team;
  const input = await buildReview({
    paths, team, trigger: 'interval', reason: 'r', state: state(), summary: () => ({ completed: [], failing: [], open: { ready: 0, inProgress: 0, blocked: 0 } }),
    staleReviews: [{ id: 'T-7', title: 'Murmur review: core (interval)', status: 'in-progress', dispatchFailures: 0 }],
  });
  assert.match(input.body ?? '', /Earlier reviews of this team went stale[^\n]*\n- T-7 "Murmur review: core \(interval\)" \(in-progress\)/);
});

const teams = suite('engine.teamsOfTask');

teams('a task belongs to the team routing.team names and to every team of its agent', () => {
  const org = validateOrg({
    schemaVersion: 1, agents: [{ id: 'a', name: 'A', team: 'x' }, { id: 'b', name: 'B' }, { id: 'c', name: 'C' }],
    teams: [{ id: 'x', name: 'X', members: ['b'] }, { id: 'y', name: 'Y', members: ['b'] }],
  }, 'chart');
  const m = membershipOf(org);
  assert.equal(teamsOfTask({}, 'a', m), ['x']);
  assert.equal(teamsOfTask({}, 'b', m).sort(), ['x', 'y']);
  assert.equal(teamsOfTask({ team: 'y' }, 'c', m), ['y']);
  assert.equal(teamsOfTask({}, undefined, m), []);
});

evaluate.run();
apply.run();
file.run();
review.run();
teams.run();
