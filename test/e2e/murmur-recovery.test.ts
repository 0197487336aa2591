import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { createStore } from '../../lib/store/commit/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { completingAgent } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { afterPolls, closeDaemons, healthy, startChild, startTestDaemon } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';
import { holdingAgent, writeTeam, statusOf, complete, reviewEvents, stateOf, reviewTasks } from './murmur-team.js';

const flow = suite('e2e.murmur guard and recovery');
flow.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

flow('no review is created while global concurrency is at its maximum', async () => {
  const root = tempRoot();
  writeTeam(
    root,
    { dev: holdingAgent(), lead: completingAgent() },
    { triggers: [{ kind: 'interval', intervalMs: 600_000 }] },
    { maxConcurrentDispatches: 1 },
  );
  const store = createStore({ root });
  const busy = (await store.create({ title: 'Busy', status: 'ready', routing: { agent: 'dev' }, createdBy: 'test' }))
    .task.id;
  assert.is((await svc(root, 'task', 'claim', busy, '--agent', 'dev')).code, 0);
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  await afterPolls(root);
  assert.is((await reviewEvents(root)).length, 0, 'held at the concurrency limit');
  await logShows(
    toPaths(root).daemonLog,
    /\[AOF\] Murmur: review of team core \(interval: no review has run yet\) waits: 1 tasks in progress/,
  );
  await complete(root, busy);
  const created = await within(
    20_000,
    async () => (await reviewEvents(root, 'created'))[0],
    'review once a slot is free',
  );
  assert.is(created.payload.trigger, 'interval');
});

flow('a stale review is cleared after reviewTimeoutMs with a warning, and its task is left as it was', async () => {
  const root = tempRoot();
  writeTeam(
    root,
    { dev: completingAgent(), lead: holdingAgent() },
    { triggers: [{ kind: 'interval', intervalMs: 600_000 }], reviewTimeoutMs: 1000 },
  );
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const created = await within(20_000, async () => (await reviewEvents(root, 'created'))[0], 'review created');
  const id = created.taskId!;
  await within(20_000, async () => (await statusOf(root, id)) === 'in-progress', 'review in progress');
  const file = toPaths(root).taskFile('in-progress', id);
  const before = readFileSync(file, 'utf8');
  const timedOut = await within(20_000, async () => (await reviewEvents(root, 'timedOut'))[0], 'review timed out');
  assert.is(timedOut.taskId, id);
  assert.ok(Number(timedOut.payload.ageMs) >= 1000);
  await logShows(toPaths(root).daemonLog, new RegExp(`\\[AOF\\] Murmur: warning: stale review ${id} of team core`));
  // The guard is released: the trigger fires again, one more reviewTimeoutMs later, with a new review that names the stale one; the stale task is untouched.
  const next = await within(
    20_000,
    async () => (await reviewEvents(root, 'created'))[1],
    'a new review after the stale one',
  );
  assert.is.not(next.taskId, id);
  const waited = Date.parse(next.timestamp) - Date.parse(timedOut.timestamp);
  assert.ok(waited >= 1000, `the next review came ${waited} ms after the stale one, not one reviewTimeoutMs`);
  await logShows(
    toPaths(root).daemonLog,
    new RegExp(
      `\\[AOF\\] Murmur: review of team core \\(interval: [^)]*\\) waits until \\S+: earlier reviews went stale and are still open \\(${id}\\)`,
    ),
  );
  assert.match(
    (await createStore({ root }).get(next.taskId!)).body,
    new RegExp(`went stale[^\\n]*\\n- ${id} "Murmur review: core \\(interval\\)" \\((ready|in-progress)\\)`),
  );
  assert.is(readFileSync(file, 'utf8'), before, 'the stale review task is not modified');
  assert.is(
    (await readEvents(root, { taskId: id, type: 'task.transitioned' })).length,
    1,
    'only its dispatch moved it',
  );
});

flow('a daemon killed and restarted mid-review keeps the guard, and the review still completes', async () => {
  const root = tempRoot();
  writeTeam(
    root,
    { dev: completingAgent(), lead: holdingAgent() },
    { triggers: [{ kind: 'completionBatch', threshold: 1 }] },
  );
  const store = createStore({ root });
  await store.create({ title: 'Before the crash', status: 'ready', routing: { agent: 'dev' }, createdBy: 'test' });
  const first = startChild(root);
  await healthy(root);
  const created = await within(30_000, async () => (await reviewEvents(root, 'created'))[0], 'review created');
  const reviewId = created.taskId!;
  await within(20_000, async () => (await statusOf(root, reviewId)) === 'in-progress', 'review in progress');
  await first.kill();
  startChild(root);
  await healthy(root);
  const after = (
    await store.create({ title: 'After the restart', status: 'ready', routing: { agent: 'dev' }, createdBy: 'test' })
  ).task.id;
  await within(30_000, async () => (await statusOf(root, after)) === 'done', 'task done after the restart');
  await within(10_000, () => stateOf(root).completionsSinceLastReview === 2, 'completion counted after the restart');
  await afterPolls(root);
  assert.equal(await reviewTasks(root), [reviewId], 'still one review');
  assert.is(stateOf(root).currentReviewTaskId, reviewId);
  await complete(root, reviewId);
  await within(
    10_000,
    () => stateOf(root).currentReviewTaskId === null && stateOf(root).completionsSinceLastReview === 0,
    'review completed after the restart',
  );
  assert.is((await reviewEvents(root, 'completed'))[0]?.taskId, reviewId);
});

flow(
  'a review created just before a crash (its task id not yet recorded) is adopted at the next start, not created twice',
  async () => {
    const root = tempRoot();
    writeTeam(
      root,
      { dev: completingAgent(), lead: holdingAgent() },
      { triggers: [{ kind: 'completionBatch', threshold: 1 }] },
    );
    const startedAt = new Date(Date.now() - 1000).toISOString();
    mkdirSync(toPaths(root).murmur, { recursive: true });
    writeFileSync(
      toPaths(root).murmurFile('core'),
      JSON.stringify({
        lastReviewAt: null,
        completionsSinceLastReview: 1,
        failuresSinceLastReview: 0,
        currentReviewTaskId: null,
        reviewStartedAt: startedAt,
        lastTriggeredBy: 'completionBatch',
      }),
    );
    const written = (
      await createStore({ root }).create({
        title: 'Murmur review: core (completionBatch)',
        status: 'ready',
        routing: { agent: 'lead' },
        createdBy: 'murmur',
      })
    ).task.id;
    await startTestDaemon(root, { tools: TOOLS, env: process.env });
    await within(10_000, () => stateOf(root).currentReviewTaskId === written, 'the written review adopted');
    await afterPolls(root);
    assert.equal(await reviewTasks(root), [written]);
    assert.is(stateOf(root).reviewStartedAt, startedAt);
  },
);

flow('a review is created while the event log cannot be appended; its event is appended once it can', async () => {
  const root = tempRoot();
  writeTeam(
    root,
    { dev: completingAgent(), lead: holdingAgent() },
    { triggers: [{ kind: 'interval', intervalMs: 600_000 }] },
  );
  const paths = toPaths(root);
  mkdirSync(paths.data, { recursive: true, mode: 0o700 });
  writeFileSync(paths.events, 'not a directory\n'); // every append fails with ENOTDIR
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const [review] = await within(
    20_000,
    async () => {
      const found = await reviewTasks(root);
      return found.length ? found : null;
    },
    'review task created',
  );
  // The task is written before its id is recorded in the state file: wait for the record.
  await within(
    10_000,
    () => stateOf(root).currentReviewTaskId === review,
    'the guard recorded though the event is not',
  );
  await logShows(paths.daemonLog, /error events\.append_failed .*ENOTDIR/);
  rmSync(paths.events);
  mkdirSync(paths.events, { mode: 0o700 });
  const created = await within(
    10_000,
    async () => (await reviewEvents(root, 'created'))[0],
    'the review event appended after the repair',
  );
  assert.is(created.taskId, review);
  await afterPolls(root);
  assert.equal(await reviewTasks(root), [review], 'one review, not a second one for the unlogged first');
});

flow.run();
