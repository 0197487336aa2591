import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents, type SvcEvent } from '../../lib/store/events.js';
import { toPaths } from '../../lib/store/paths.js';
import { createStore } from '../../lib/store/store.js';
import { TOOLS } from '../../lib/tools/index.js';
import { completingAgent, quittingAgent, writeOrg } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';
import { call, closeDaemons, healthy, startChild, startTestDaemon, taskText } from '../helpers/daemon.js';
import { cleanRoots, logShows, tempRoot, within } from '../helpers/root.js';

const FAST = { bootWindowMs: 200, pollIntervalMs: 150, spawnTimeoutMs: 1500, retryBackoffMs: [100] };

/** argv of an agent that holds its task until the task leaves in-progress (at most a minute), then exits 0. */
function holdingAgent(): string[] {
  const script = `
    const file = require('node:path').join(process.env.SVC_HOME, 'tasks', 'in-progress', process.env.SVC_TASK_ID + '.md');
    const end = Date.now() + 60000;
    const timer = setInterval(() => { if (!require('node:fs').existsSync(file) || Date.now() > end) clearInterval(timer); }, 100);
  `;
  return [process.execPath, '-e', script];
}

/** A team `core` with member `dev` and orchestrator `lead`, and the given murmur block. */
function writeTeam(root: string, agents: { dev: string[]; lead: string[] }, murmur: Record<string, unknown>, daemon: Record<string, unknown> = {}): void {
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: agents.dev, maxConcurrent: 3 }, { id: 'lead', name: 'Lead', command: agents.lead }],
    teams: [{ id: 'core', name: 'Core', members: ['dev'], orchestrator: 'lead', murmur }],
    roles: { builder: { agents: ['dev'] } },
    aof: { daemon: { ...FAST, maxConcurrentDispatches: 10, ...daemon } },
  });
}

async function dispatch(root: string, title: string, route: Record<string, string> = { agent: 'dev' }): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_dispatch', params: { title, brief: 'Do it.', ...route } });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

async function statusOf(root: string, id: string): Promise<string> {
  return (await createStore({ root }).get(id)).status;
}

/** Completes an in-progress task as its lease holder (what the agent would do). */
async function complete(root: string, id: string): Promise<void> {
  const { task } = await createStore({ root }).get(id);
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool: 'svc_task_complete', params: { taskId: id, sessionId: task.lease?.sessionId, summary: 'reviewed' } });
  assert.is(status, 200, JSON.stringify(body));
}

async function reviewEvents(root: string, action?: string): Promise<SvcEvent[]> {
  return (await readEvents(root, { type: 'murmur.review' })).filter((e) => !action || e.payload.action === action);
}

function stateOf(root: string): Record<string, unknown> {
  return JSON.parse(readFileSync(toPaths(root).murmurFile('core'), 'utf8')) as Record<string, unknown>;
}

/** Waits until the daemon of `root` has run `n` more polls (murmur is evaluated on each). */
async function afterPolls(root: string, n = 3): Promise<void> {
  const seen = new Set<string>();
  await within(20_000, async () => {
    const { body } = await call(root, 'GET', '/status');
    const at = (body as { scheduler: { lastPollAt: string | null } }).scheduler.lastPollAt;
    if (at) seen.add(at);
    return seen.size > n;
  }, `${n} polls`);
}

async function reviewTasks(root: string): Promise<string[]> {
  return (await createStore({ root }).list()).tasks.filter((t) => t.task.title.startsWith('Murmur review: core')).map((t) => t.task.id);
}

const flow = suite('e2e.murmur');
flow.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

flow('completionBatch fires at its threshold, not before; completing the review resets the counters in the state file', async () => {
  const root = tempRoot();
  writeTeam(root, { dev: completingAgent(), lead: completingAgent('review done') }, { triggers: [{ kind: 'completionBatch', threshold: 2 }], context: ['taskSummary'] });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const first = await dispatch(root, 'First');
  await within(20_000, async () => (await statusOf(root, first)) === 'done' && stateOf(root).completionsSinceLastReview === 1, 'one completion counted');
  await afterPolls(root);
  assert.is((await reviewEvents(root)).length, 0, 'no review below the threshold');
  const second = await dispatch(root, 'Second', { role: 'builder' }); // routed by role: no agent left on the task once done
  const created = await within(20_000, async () => (await reviewEvents(root, 'created'))[0], 'review created');
  assert.equal(created.payload, { team: 'core', action: 'created', trigger: 'completionBatch', reason: '2 tasks completed since the last review (threshold 2)', agent: 'lead' });
  const review = await createStore({ root }).get(created.taskId!);
  assert.is(review.task.title, 'Murmur review: core (completionBatch)');
  assert.equal(review.task.routing, { agent: 'lead' });
  assert.equal(review.task.metadata.murmur, { team: 'core', trigger: 'completionBatch' });
  assert.match(review.body, /2 completed, 0 failed or deadlettered/);
  assert.match(review.body, new RegExp(`Completed:\\n- ${second} "Second" \\(done\\)\\n- ${first} "First" \\(done\\)\\n`), 'the summary lists both completions it counts');
  const completed = await within(20_000, async () => (await reviewEvents(root, 'completed'))[0], 'review completed');
  assert.is(completed.taskId, created.taskId);
  const state = await within(5000, () => (stateOf(root).currentReviewTaskId === null ? stateOf(root) : null), 'state after the review');
  assert.equal(state, {
    lastReviewAt: completed.timestamp, completionsSinceLastReview: 0, failuresSinceLastReview: 0,
    currentReviewTaskId: null, reviewStartedAt: null, lastTriggeredBy: 'completionBatch',
  });
  assert.is(await statusOf(root, created.taskId!), 'done');
  await logShows(toPaths(root).daemonLog, /\[AOF\] Murmur: created review TASK-[\d-]+ for team core, routed to lead/);
});

flow('a task first seen in done counts when it was updated since the daemon started (completed by another daemon on the tree, or by hand); an older one does not', async () => {
  const root = tempRoot();
  writeTeam(root, { dev: completingAgent(), lead: holdingAgent() }, { triggers: [{ kind: 'completionBatch', threshold: 2 }] }, { rescanIntervalMs: 200 });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const paths = toPaths(root);
  const doneBy = (id: string, at: string) => taskText(id, 'done', `Done elsewhere ${id}`).replaceAll('2026-01-01T00:00:00.000Z', at);
  writeFileSync(paths.taskFile('done', 'TASK-2026-01-01-001'), doneBy('TASK-2026-01-01-001', '2026-01-01T00:00:00.000Z'));
  writeFileSync(paths.taskFile('done', 'TASK-2026-01-01-002'), doneBy('TASK-2026-01-01-002', new Date().toISOString()));
  await within(20_000, () => stateOf(root).completionsSinceLastReview === 1, 'the fresh completion counted');
  await afterPolls(root);
  assert.is(stateOf(root).completionsSinceLastReview, 1, 'the task done before the daemon started is not counted');
  assert.is((await reviewEvents(root)).length, 0, 'no review below the threshold');
  writeFileSync(paths.taskFile('done', 'TASK-2026-01-01-003'), doneBy('TASK-2026-01-01-003', new Date().toISOString()));
  const created = await within(20_000, async () => (await reviewEvents(root, 'created'))[0], 'review created');
  assert.is(created.payload.reason, '2 tasks completed since the last review (threshold 2)');
});

flow('queueEmpty fires once the team has nothing ready or in progress after some work, not while a task is open', async () => {
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
});

flow('interval fires at once when no review ever ran, then again only after intervalMs since the last review', async () => {
  const root = tempRoot();
  writeTeam(root, { dev: completingAgent(), lead: completingAgent() }, { triggers: [{ kind: 'interval', intervalMs: 1500 }] });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const first = await within(20_000, async () => (await reviewEvents(root, 'created'))[0], 'first review');
  assert.is(first.payload.reason, 'no review has run yet');
  const done = await within(20_000, async () => (await reviewEvents(root, 'completed'))[0], 'first review completed');
  const second = await within(20_000, async () => (await reviewEvents(root, 'created'))[1], 'second review');
  assert.is(second.payload.trigger, 'interval');
  const gap = Date.parse(second.timestamp) - Date.parse(done.timestamp);
  assert.ok(gap >= 1500, `second review ${gap} ms after the first completed`);
});

flow('failureBatch counts failed or deadlettered tasks: one task failing three times and deadlettered counts once; the guard keeps it to one review', async () => {
  const root = tempRoot();
  writeTeam(root, { dev: quittingAgent(), lead: holdingAgent() }, { triggers: [{ kind: 'failureBatch', threshold: 2 }], context: ['taskSummary'] });
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
});

flow('the guard holds under a burst of completions: one review; completing it resets the counters and nothing fires', async () => {
  const root = tempRoot();
  writeTeam(root, { dev: completingAgent(), lead: holdingAgent() }, { triggers: [{ kind: 'completionBatch', threshold: 1 }] });
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => dispatch(root, `Burst ${i}`)));
  await within(60_000, async () => (await Promise.all(ids.map((id) => statusOf(root, id)))).every((s) => s === 'done'), 'all done');
  await within(10_000, () => stateOf(root).completionsSinceLastReview === 8, 'eight completions counted');
  await afterPolls(root);
  const reviews = await reviewTasks(root);
  assert.is(reviews.length, 1, `reviews: ${reviews.join(', ')}`);
  assert.is((await reviewEvents(root, 'created')).length, 1);
  await within(20_000, async () => (await statusOf(root, reviews[0]!)) === 'in-progress', 'review in progress');
  await complete(root, reviews[0]!);
  await within(10_000, () => stateOf(root).currentReviewTaskId === null && stateOf(root).completionsSinceLastReview === 0, 'counters reset');
  await afterPolls(root);
  assert.is((await reviewTasks(root)).length, 1, 'no completion since the review: no new review');
});

flow('no review is created while global concurrency is at its maximum', async () => {
  const root = tempRoot();
  writeTeam(root, { dev: holdingAgent(), lead: completingAgent() }, { triggers: [{ kind: 'interval', intervalMs: 600_000 }] }, { maxConcurrentDispatches: 1 });
  const store = createStore({ root });
  const busy = (await store.create({ title: 'Busy', status: 'ready', routing: { agent: 'dev' }, createdBy: 'test' })).task.id;
  assert.is((await svc(root, 'task', 'claim', busy, '--agent', 'dev')).code, 0);
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  await afterPolls(root);
  assert.is((await reviewEvents(root)).length, 0, 'held at the concurrency limit');
  await logShows(toPaths(root).daemonLog, /\[AOF\] Murmur: review of team core \(interval: no review has run yet\) waits: 1 tasks in progress/);
  await complete(root, busy);
  const created = await within(20_000, async () => (await reviewEvents(root, 'created'))[0], 'review once a slot is free');
  assert.is(created.payload.trigger, 'interval');
});

flow('a stale review is cleared after reviewTimeoutMs with a warning, and its task is left as it was', async () => {
  const root = tempRoot();
  writeTeam(root, { dev: completingAgent(), lead: holdingAgent() }, { triggers: [{ kind: 'interval', intervalMs: 600_000 }], reviewTimeoutMs: 1000 });
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
  const next = await within(20_000, async () => (await reviewEvents(root, 'created'))[1], 'a new review after the stale one');
  assert.is.not(next.taskId, id);
  const waited = Date.parse(next.timestamp) - Date.parse(timedOut.timestamp);
  assert.ok(waited >= 1000, `the next review came ${waited} ms after the stale one, not one reviewTimeoutMs`);
  await logShows(toPaths(root).daemonLog, new RegExp(`\\[AOF\\] Murmur: review of team core \\(interval: [^)]*\\) waits until \\S+: earlier reviews went stale and are still open \\(${id}\\)`));
  assert.match((await createStore({ root }).get(next.taskId!)).body, new RegExp(`went stale[^\\n]*\\n- ${id} "Murmur review: core \\(interval\\)" \\((ready|in-progress)\\)`));
  assert.is(readFileSync(file, 'utf8'), before, 'the stale review task is not modified');
  assert.is((await readEvents(root, { taskId: id, type: 'task.transitioned' })).length, 1, 'only its dispatch moved it');
});

flow('a daemon killed and restarted mid-review keeps the guard, and the review still completes', async () => {
  const root = tempRoot();
  writeTeam(root, { dev: completingAgent(), lead: holdingAgent() }, { triggers: [{ kind: 'completionBatch', threshold: 1 }] });
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
  const after = (await store.create({ title: 'After the restart', status: 'ready', routing: { agent: 'dev' }, createdBy: 'test' })).task.id;
  await within(30_000, async () => (await statusOf(root, after)) === 'done', 'task done after the restart');
  await within(10_000, () => stateOf(root).completionsSinceLastReview === 2, 'completion counted after the restart');
  await afterPolls(root);
  assert.equal(await reviewTasks(root), [reviewId], 'still one review');
  assert.is(stateOf(root).currentReviewTaskId, reviewId);
  await complete(root, reviewId);
  await within(10_000, () => stateOf(root).currentReviewTaskId === null && stateOf(root).completionsSinceLastReview === 0, 'review completed after the restart');
  assert.is((await reviewEvents(root, 'completed'))[0]?.taskId, reviewId);
});

flow('a review created just before a crash (its task id not yet recorded) is adopted at the next start, not created twice', async () => {
  const root = tempRoot();
  writeTeam(root, { dev: completingAgent(), lead: holdingAgent() }, { triggers: [{ kind: 'completionBatch', threshold: 1 }] });
  const startedAt = new Date(Date.now() - 1000).toISOString();
  mkdirSync(toPaths(root).murmur, { recursive: true });
  writeFileSync(toPaths(root).murmurFile('core'), JSON.stringify({
    lastReviewAt: null, completionsSinceLastReview: 1, failuresSinceLastReview: 0, currentReviewTaskId: null, reviewStartedAt: startedAt, lastTriggeredBy: 'completionBatch',
  }));
  const written = (await createStore({ root }).create({ title: 'Murmur review: core (completionBatch)', status: 'ready', routing: { agent: 'lead' }, createdBy: 'murmur' })).task.id;
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  await within(10_000, () => stateOf(root).currentReviewTaskId === written, 'the written review adopted');
  await afterPolls(root);
  assert.equal(await reviewTasks(root), [written]);
  assert.is(stateOf(root).reviewStartedAt, startedAt);
});

flow('a review is created while the event log cannot be appended; its event is appended once it can', async () => {
  const root = tempRoot();
  writeTeam(root, { dev: completingAgent(), lead: holdingAgent() }, { triggers: [{ kind: 'interval', intervalMs: 600_000 }] });
  const paths = toPaths(root);
  mkdirSync(paths.data, { recursive: true, mode: 0o700 });
  writeFileSync(paths.events, 'not a directory\n'); // every append fails with ENOTDIR
  await startTestDaemon(root, { tools: TOOLS, env: process.env });
  const [review] = await within(20_000, async () => { const found = await reviewTasks(root); return found.length ? found : null; }, 'review task created');
  // The task is written before its id is recorded in the state file: wait for the record.
  await within(10_000, () => stateOf(root).currentReviewTaskId === review, 'the guard recorded though the event is not');
  await logShows(paths.daemonLog, /error events\.append_failed .*ENOTDIR/);
  rmSync(paths.events);
  mkdirSync(paths.events, { mode: 0o700 });
  const created = await within(10_000, async () => (await reviewEvents(root, 'created'))[0], 'the review event appended after the repair');
  assert.is(created.taskId, review);
  await afterPolls(root);
  assert.equal(await reviewTasks(root), [review], 'one review, not a second one for the unlogged first');
});

flow.run();
