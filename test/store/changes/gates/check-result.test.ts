import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { finishChecks, KEPT_FAILURES, type CheckOutcome } from '../../../../lib/store/changes/gates/check-result.js';
import { completeTask } from '../../../../lib/store/changes/gates/complete.js';
import type { Store } from '../../../../lib/store/commit/store.js';
import { claimTask } from '../../../../lib/store/changes/work.js';
import { cleanRoots } from '../../../helpers/root.js';
import { setup } from '../../../tools/helpers.js';

const noFlow = async () => {
  throw new Error('no workflow in these tests');
};

/** Claims the ready task, completes it (its checks then run under a lease to svc) and fails check `test` with `tail`. */
async function failOnce(store: Store, id: string, tail: string, n: number): Promise<void> {
  const claimed = await claimTask(store, id, { actor: 'dev', agent: 'dev' });
  const checking = await completeTask(store, id, {
    actor: 'dev',
    sessionId: claimed.after.task.lease!.sessionId,
    loadFlow: noFlow,
  });
  const failed: CheckOutcome = {
    name: 'test',
    exitCode: 1,
    signal: null,
    timedOut: false,
    durationMs: 5,
    tail,
    log: `/logs/check-test-${n}.log`,
  };
  assert.is(
    await finishChecks(
      store,
      { taskId: id, sessionId: checking.after.task.lease!.sessionId },
      { end: { passed: false, failed, maxFailures: 1000 }, flow: null },
    ),
    'ready',
  );
}

const finish = suite('store.finishChecks');
finish.after.each(cleanRoots);

finish(
  '40 failed checks leave a bounded body: the brief and the newest failures, each with its own output',
  async () => {
    const { store } = setup();
    const brief = 'Make the tests pass.\n\n## Check failed: a heading the author wrote (not a section)\n';
    const created = await store.create({
      title: 'Fix it',
      status: 'ready',
      routing: { agent: 'dev', verify: ['test'] },
      body: brief,
      createdBy: 'test',
    });
    const id = created.task.id;
    const output = (n: number) =>
      `${'x'.repeat(4000)}\nfailure ${n} of 40 with a fence inside: \`\`\`\n## Check failed: test (2026-11-21T10:00:00.000Z)\n`;
    let sizeAfterKept = 0;
    for (let n = 1; n <= 40; n++) {
      await failOnce(store, id, output(n), n);
      if (n === KEPT_FAILURES) sizeAfterKept = (await store.get(id)).body.length;
    }
    const { body, task } = await store.get(id);
    assert.ok(body.startsWith(brief.trimEnd()), 'the brief is kept as written');
    assert.is(
      body.match(/^## Check failed: test \(/gm)?.length,
      KEPT_FAILURES + KEPT_FAILURES,
      'the kept sections (each output holds one such line)',
    );
    for (let n = 1; n <= 40; n++)
      assert.is(body.includes(`failure ${n} of 40`), n > 40 - KEPT_FAILURES, `failure ${n}`);
    assert.ok(
      body.length <= sizeAfterKept + 100,
      `${body.length} bytes after 40 failures, ${sizeAfterKept} after ${KEPT_FAILURES}`,
    );
    assert.is(task.metadata.checkFailures, 40, 'the count goes on');
  },
);

finish("a NUL in a check's output is stored escaped, and the failure still sends the task back to ready", async () => {
  const { store } = setup();
  const created = await store.create({
    title: 'Fix it',
    status: 'ready',
    routing: { agent: 'dev', verify: ['test'] },
    body: 'Brief.',
    createdBy: 'test',
  });
  await failOnce(store, created.task.id, 'before\0after\n', 1);
  const { body, status } = await store.get(created.task.id);
  assert.is(status, 'ready');
  assert.not.ok(body.includes('\0'));
  assert.match(body, /\nbefore\\x00after\n/);
});

finish.run();
