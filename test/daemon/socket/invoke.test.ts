import { existsSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOOLS } from '../../../lib/tools/operator.js';
import { TOOLS } from '../../../lib/tools/index.js';
import { toPaths } from '../../../lib/store/disk/paths.js';
import { call, closeDaemons, startTestDaemon, writeTaskFiles } from '../../helpers/daemon.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

const batch = suite('daemon.invoke batch');
batch.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

const options = { schedule: false, watch: false, tools: [...TOOLS, ...OPERATOR_TOOLS] };

batch(
  'POST /v1/tool/batch answers each call as its own request would, a failure failing none of the others',
  async () => {
    const root = tempRoot();
    const [a, b] = await writeTaskFiles(root, 2);
    await startTestDaemon(root, options);
    const reply = await call(root, 'POST', '/v1/tool/batch', {
      tool: 'operator_task_promote',
      batch: [
        { params: { taskId: a } },
        { params: { taskId: 'TASK-2026-01-01-999' }, requestId: 'r.2' },
        { params: {} },
        { params: { taskId: b }, requestId: 'r.4' },
      ],
    });
    assert.is(reply.status, 200);
    const { results } = reply.body as {
      results: { status: number; ok: boolean; result?: { to: string }; error?: { code: string } }[];
    };
    assert.equal(
      results.map((result) => [result.status, result.ok, result.result?.to ?? result.error?.code]),
      [
        [200, true, 'ready'],
        [404, false, 'not_found'],
        [400, false, 'validation_error'],
        [200, true, 'ready'],
      ],
    );
    const single = await call(root, 'POST', '/v1/tool/invoke', {
      tool: 'operator_task_promote',
      params: { taskId: 'TASK-2026-01-01-999' },
    });
    assert.equal(
      { status: results[1]!.status, ok: false, error: results[1]!.error },
      { status: single.status, ...(single.body as object) },
      'the same error as a call of its own',
    );
    const again = await call(root, 'POST', '/v1/tool/batch', {
      tool: 'operator_task_promote',
      batch: [{ params: { taskId: b }, requestId: 'r.4' }],
    });
    assert.equal(
      (again.body as { results: unknown[] }).results,
      [{ ...results[3], replayed: true }],
      'a repeat of a request id gets its first answer',
    );
  },
);

batch('a batch that is not a list of calls is refused whole and changes nothing', async () => {
  const root = tempRoot();
  const [a] = await writeTaskFiles(root, 1);
  await startTestDaemon(root, options);
  for (const body of [
    { tool: 'operator_task_promote', batch: [] },
    { tool: 'operator_task_promote' },
    { tool: 'operator_task_promote', batch: [{ params: { taskId: a } }, 5] },
    { tool: 'operator_task_promote', batch: [{ params: { taskId: a }, requestId: 'bad id' }] },
  ]) {
    const reply = await call(root, 'POST', '/v1/tool/batch', body);
    const error = (reply.body as { error: { code: string; hint: string } }).error;
    assert.equal([reply.status, error.code], [400, 'validation_error'], JSON.stringify(body));
    assert.ok(error.hint.length > 0);
  }
  assert.ok(existsSync(toPaths(root).taskFile('backlog', a!)), 'not moved');
});

batch.run();
