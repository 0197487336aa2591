import { writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toPaths } from '../../lib/store/disk/paths.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { completingAgent, quittingAgent } from '../helpers/agents.js';
import { afterPolls, closeDaemons, startTestDaemon, taskText } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';
import {
  holdingAgent,
  writeTeam,
  dispatch,
  statusOf,
  complete,
  reviewEvents,
  stateOf,
  reviewTasks,
} from './murmur-team.js';

const flow = suite('e2e.murmur');
flow.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

flow(
  'completionBatch fires at its threshold, not before; completing the review resets the counters in the state file',
  async () => {
    const root = tempRoot();
    writeTeam(
      root,
      { dev: completingAgent(), lead: completingAgent('review done') },
      { triggers: [{ kind: 'completionBatch', threshold: 2 }], context: ['taskSummary'] },
    );
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const first = await dispatch(root, 'First');
    await within(
      20_000,
      async () => (await statusOf(root, first)) === 'done' && stateOf(root).completionsSinceLastReview === 1,
      'one completion counted',
    );
    await afterPolls(root);
    assert.is((await reviewEvents(root)).length, 0, 'no review below the threshold');
    const second = await dispatch(root, 'Second', { role: 'builder' }); // routed by role: no agent left on the task once done
    const created = await within(20_000, async () => (await reviewEvents(root, 'created'))[0], 'review created');
    assert.equal(created.payload, {
      team: 'core',
      action: 'created',
      trigger: 'completionBatch',
      reason: '2 tasks completed since the last review (threshold 2)',
      agent: 'lead',
    });
    const review = await createStore({ root }).get(created.taskId!);
    assert.is(review.task.title, 'Murmur review: core (completionBatch)');
    assert.equal(review.task.routing, { agent: 'lead' });
    assert.equal(review.task.metadata.murmur, { team: 'core', trigger: 'completionBatch' });
    assert.match(review.body, /2 completed, 0 failed or deadlettered/);
    assert.match(
      review.body,
      new RegExp(`Completed:\\n- ${second} "Second" \\(done\\)\\n- ${first} "First" \\(done\\)\\n`),
      'the summary lists both completions it counts',
    );
    const completed = await within(20_000, async () => (await reviewEvents(root, 'completed'))[0], 'review completed');
    assert.is(completed.taskId, created.taskId);
    const state = await within(
      5000,
      () => (stateOf(root).currentReviewTaskId === null ? stateOf(root) : null),
      'state after the review',
    );
    assert.equal(state, {
      lastReviewAt: completed.timestamp,
      completionsSinceLastReview: 0,
      failuresSinceLastReview: 0,
      currentReviewTaskId: null,
      reviewStartedAt: null,
      lastTriggeredBy: 'completionBatch',
    });
    assert.is(await statusOf(root, created.taskId!), 'done');
    await logShows(toPaths(root).daemonLog, /\[AOF\] Murmur: created review TASK-[\d-]+ for team core, routed to lead/);
  },
);

flow(
  'a task first seen in done counts when it was updated since the daemon started (completed by another daemon on the tree, or by hand); an older one does not',
  async () => {
    const root = tempRoot();
    writeTeam(
      root,
      { dev: completingAgent(), lead: holdingAgent() },
      { triggers: [{ kind: 'completionBatch', threshold: 2 }] },
      { rescanIntervalMs: 200 },
    );
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const paths = toPaths(root);
    const doneBy = (id: string, at: string) =>
      taskText(id, 'done', `Done elsewhere ${id}`).replaceAll('2026-01-01T00:00:00.000Z', at);
    writeFileSync(
      paths.taskFile('done', 'TASK-2026-01-01-001'),
      doneBy('TASK-2026-01-01-001', '2026-01-01T00:00:00.000Z'),
    );
    writeFileSync(
      paths.taskFile('done', 'TASK-2026-01-01-002'),
      doneBy('TASK-2026-01-01-002', new Date().toISOString()),
    );
    await within(20_000, () => stateOf(root).completionsSinceLastReview === 1, 'the fresh completion counted');
    await afterPolls(root);
    assert.is(stateOf(root).completionsSinceLastReview, 1, 'the task done before the daemon started is not counted');
    assert.is((await reviewEvents(root)).length, 0, 'no review below the threshold');
    writeFileSync(
      paths.taskFile('done', 'TASK-2026-01-01-003'),
      doneBy('TASK-2026-01-01-003', new Date().toISOString()),
    );
    const created = await within(20_000, async () => (await reviewEvents(root, 'created'))[0], 'review created');
    assert.is(created.payload.reason, '2 tasks completed since the last review (threshold 2)');
  },
);

flow(
  'queueEmpty fires once the team has nothing ready or in progress after some work, not while a task is open',
  async () => {
    const root = tempRoot();
    writeTeam(root, { dev: holdingAgent(), lead: holdingAgent() }, { triggers: [{ kind: 'queueEmpty' }] });
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const id = await dispatch(root, 'Open work');
    await within(20_000, async () => (await statusOf(root, id)) === 'in-progress', 'in progress');
    await afterPolls(root);
    assert.is((await reviewEvents(root)).length, 0, 'no review while the team has a task in progress');
    await complete(root, id);
    const created = await within(20_000, async () => (await reviewEvents(root, 'created'))[0], 'review created');
    assert.is(created.payload.trigger, 'queueEmpty');
    assert.is((await createStore({ root }).get(created.taskId!)).task.title, 'Murmur review: core (queueEmpty)');
  },
);

flow(
  'interval fires at once when no review ever ran, then again only after intervalMs since the last review',
  async () => {
    const root = tempRoot();
    writeTeam(
      root,
      { dev: completingAgent(), lead: completingAgent() },
      { triggers: [{ kind: 'interval', intervalMs: 1500 }] },
    );
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const first = await within(20_000, async () => (await reviewEvents(root, 'created'))[0], 'first review');
    assert.is(first.payload.reason, 'no review has run yet');
    const done = await within(20_000, async () => (await reviewEvents(root, 'completed'))[0], 'first review completed');
    const second = await within(20_000, async () => (await reviewEvents(root, 'created'))[1], 'second review');
    assert.is(second.payload.trigger, 'interval');
    const gap = Date.parse(second.timestamp) - Date.parse(done.timestamp);
    assert.ok(gap >= 1500, `second review ${gap} ms after the first completed`);
  },
);

flow(
  'failureBatch counts failed or deadlettered tasks: one task failing three times and deadlettered counts once; the guard keeps it to one review',
  async () => {
    const root = tempRoot();
    writeTeam(
      root,
      { dev: quittingAgent(), lead: holdingAgent() },
      { triggers: [{ kind: 'failureBatch', threshold: 2 }], context: ['taskSummary'] },
    );
    let stderr = '';
    await startTestDaemon(root, { tools: TOOLS, env: process.env, stderr: (text) => void (stderr += text) });
    const id = await dispatch(root, 'Doomed');
    await within(20_000, async () => (await statusOf(root, id)) === 'deadletter', 'deadletter');
    await within(5000, () => /\[AOF\] DEADLETTER: /.test(stderr), 'deadletter alert');
    await within(10_000, () => stateOf(root).failuresSinceLastReview === 1, 'one failing task counted');
    await afterPolls(root);
    assert.is((await reviewEvents(root)).length, 0, 'one task is below the threshold of 2, however often it failed');
    assert.is(stateOf(root).failuresSinceLastReview, 1);
    const other = await dispatch(root, 'Doomed too');
    const created = await within(20_000, async () => (await reviewEvents(root, 'created'))[0], 'review created');
    assert.is(created.payload.trigger, 'failureBatch');
    assert.is(created.payload.reason, '2 tasks failed or deadlettered since the last review (threshold 2)');
    const body = (await createStore({ root }).get(created.taskId!)).body;
    assert.match(body, new RegExp(`Failing or deadlettered:\\n(- .*\\n)*- ${id} "Doomed" \\(deadletter`));
    assert.match(body, new RegExp(`- ${other} "Doomed too"`));
    await within(20_000, async () => (await statusOf(root, other)) === 'deadletter', 'second deadletter');
    await afterPolls(root);
    assert.is(stateOf(root).failuresSinceLastReview, 2);
    assert.equal(await reviewTasks(root), [created.taskId]);
    assert.is(stateOf(root).currentReviewTaskId, created.taskId);
  },
);

flow(
  'the guard holds under a burst of completions: one review; completing it resets the counters and nothing fires',
  async () => {
    const root = tempRoot();
    writeTeam(
      root,
      { dev: completingAgent(), lead: holdingAgent() },
      { triggers: [{ kind: 'completionBatch', threshold: 1 }] },
    );
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => dispatch(root, `Burst ${i}`)));
    await within(
      60_000,
      async () => (await Promise.all(ids.map((id) => statusOf(root, id)))).every((s) => s === 'done'),
      'all done',
    );
    await within(10_000, () => stateOf(root).completionsSinceLastReview === 8, 'eight completions counted');
    await afterPolls(root);
    const reviews = await reviewTasks(root);
    assert.is(reviews.length, 1, `reviews: ${reviews.join(', ')}`);
    assert.is((await reviewEvents(root, 'created')).length, 1);
    await within(20_000, async () => (await statusOf(root, reviews[0]!)) === 'in-progress', 'review in progress');
    await complete(root, reviews[0]!);
    await within(
      10_000,
      () => stateOf(root).currentReviewTaskId === null && stateOf(root).completionsSinceLastReview === 0,
      'counters reset',
    );
    await afterPolls(root);
    assert.is((await reviewTasks(root)).length, 1, 'no completion since the review: no new review');
  },
);

flow.run();
