import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanRoots } from '../helpers/root.js';
import { ORG_CHART, rejects, setup, snapshot, WORKFLOW } from './helpers.js';

const workflow = suite('tools.svc_dispatch workflow');
workflow.after.each(cleanRoots);

type Dispatched = { taskId: string; status: string; filePath: string };

workflow("creates a gated task at the workflow's first gate, in ready (its gate's role routes it)", async () => {
  const { call, store } = setup({ org: ORG_CHART, workflows: { 'implement-review': WORKFLOW } });
  const result = await call<Dispatched>('svc_dispatch', {
    title: 'Gated',
    brief: 'Through the gates.',
    workflow: 'implement-review',
    actor: 'orchestrator',
  });
  assert.is(result.status, 'ready');
  const { task } = await store.get(result.taskId);
  assert.equal(task.gate, { workflow: 'implement-review', current: 'implement', history: [] });
  assert.is(task.routing.workflow, 'implement-review');
});

workflow(
  'refuses a workflow the org chart does not have, with a "Did you mean" and the known ones, creating nothing',
  async () => {
    const { call, root } = setup({ org: ORG_CHART, workflows: { 'implement-review': WORKFLOW } });
    const before = snapshot(root);
    const error = await rejects(
      call('svc_dispatch', { title: 'Typo', brief: 'x', workflow: 'implement-reveiw' }),
      'not_found',
      'Workflow "implement-reveiw" not found',
      'Did you mean "implement-review"?',
    );
    assert.is(error.hint, 'Known workflows: implement-review.');
    await rejects(
      call('svc_dispatch', { title: 'Path', brief: 'x', workflow: '../escape' }),
      'validation_error',
      'Invalid workflow name',
    );
    assert.equal(snapshot(root), before);
  },
);

workflow('refuses a workflow whose gate names a role the org chart lacks, creating nothing', async () => {
  const broken = WORKFLOW.replace('role: reviewer', 'role: auditor');
  const { call, root } = setup({ org: ORG_CHART, workflows: { audit: broken } });
  const before = snapshot(root);
  await rejects(call('svc_dispatch', { title: 'Audit', brief: 'x', workflow: 'audit' }), 'validation_error', 'auditor');
  assert.equal(snapshot(root), before);
});

workflow.run();
