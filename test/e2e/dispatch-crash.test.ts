import { existsSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents, type SvcEvent } from '../../lib/store/events/log.js';
import { findTaskFiles } from '../../lib/store/commit/copies.js';
import { setStatus } from '../../lib/store/changes/ops.js';
import { createStore } from '../../lib/store/commit/store.js';
import { recordingAgent, writeOrg } from '../helpers/agents.js';
import { closeDaemons, healthy, runSvc, startChild, type ChildDaemon } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// A daemon SIGKILLed at each step of a dispatch (SVC_TEST_CRASH_AT, the test-only fault hook),
// then restarted: the task is run exactly once, and the event log tells one consistent story.
const STEPS: [step: string, dispatchedEvents: number][] = [
  ['dispatch.marked', 1], // before the lease: nothing happened yet
  ['commit.written@dispatch', 2], // the in-progress copy written, the ready one still there
  ['commit.unlinked@dispatch', 2], // moved, lock still held, no event yet
  ['commit.committed@dispatch', 2], // committed, its events not appended
  ['dispatch.leased', 2], // committed and logged, not handed to the adapter
  ['dispatch.handed', 1], // the agent runs: the restart must leave it alone
];

async function crashed(child: ChildDaemon): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  await within(
    30_000,
    () => child.child.exitCode !== null || child.child.signalCode !== null,
    'the daemon to crash at its fault point',
  );
  return child.exited;
}

/** Every transition starts where the previous one ended, from the created status to `done`. */
function assertChain(events: SvcEvent[], id: string): void {
  let at = String(events.find((e) => e.type === 'task.created')?.payload.status);
  for (const event of events.filter((e) => e.type === 'task.transitioned')) {
    assert.is(event.payload.from, at, `${id}: transition ${JSON.stringify(event.payload)} does not start at ${at}`);
    at = String(event.payload.to);
  }
  assert.is(at, 'done');
}

const crash = suite('e2e.dispatch crash recovery');
crash.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

for (const [step, expected] of STEPS) {
  crash(
    `a daemon killed at ${step} leaves a task that, after a restart, runs exactly once with a consistent log`,
    async () => {
      const root = tempRoot();
      writeOrg(root, {
        agents: [{ id: 'dev', name: 'Dev', command: recordingAgent() }],
        aof: { daemon: { bootWindowMs: 200, pollIntervalMs: 200 } },
      });
      const store = createStore({ root });
      const id = (await store.create({ title: `Crash at ${step}`, routing: { agent: 'dev' }, createdBy: 'test' })).task
        .id;
      const first = startChild(root, ['daemon', 'run'], { SVC_TEST_CRASH_AT: step });
      await healthy(root);
      await setStatus(store, id, { to: 'ready', actor: 'test' });
      assert.equal(await crashed(first), { code: null, signal: 'SIGKILL' });
      assert.match(first.output(), `SVC_TEST_CRASH_AT=${step} reached`);
      startChild(root);
      await healthy(root);
      // The events of a commit are appended just after it: wait for the log, not the file.
      const events = await within(
        60_000,
        async () => {
          const found = await readEvents(root, { taskId: id });
          return found.some((e) => e.type === 'task.transitioned' && e.payload.to === 'done') && found;
        },
        `${id} done in the event log`,
      ).catch((err: Error) => {
        throw new Error(
          `${err.message}\n${readFileSync(`${root}/data/logs/daemon.log`, 'utf8').split('\n').slice(-25).join('\n')}`,
        );
      });
      assert.is((await store.get(id)).status, 'done');
      const ran = readFileSync(`${root}/ran-${id}`, 'utf8').trim().split('\n');
      assert.is(ran.length, 1, `the agent ran once: ${ran.join(', ')}`);
      const dispatched = events.filter((e) => e.type === 'task.dispatched').map((e) => String(e.payload.sessionId));
      assert.is(dispatched.length, expected, JSON.stringify(events.map((e) => [e.type, e.payload])));
      assert.is(new Set(dispatched).size, dispatched.length, 'one task.dispatched per lease');
      assert.is(dispatched.at(-1), ran[0], 'the run is the last dispatch');
      assert.is(
        events.filter((e) => e.type === 'task.transitioned' && e.payload.to === 'in-progress').length,
        dispatched.length,
      );
      assertChain(events, id);
      assert.is((await findTaskFiles(store.paths, id)).length, 1, 'one copy');
      // The agent may finish before the new daemon settled the markers: wait for that.
      await within(20_000, () => !existsSync(`${store.paths.spawns}/${id}@${ran[0]}`), 'no marker left');
      const doctor = await runSvc({ SVC_HOME: root, HOME: root }, 'doctor');
      assert.is(doctor.code, 0, doctor.stdout + doctor.stderr);
    },
  );
}

crash.run();
