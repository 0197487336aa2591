import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/commit/store.js';
import { call } from '../helpers/daemon.js';

// The workspace end-to-end tests' timings and calls (test/e2e/workspaces.test.ts, workspace-*.test.ts).
export const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 300, retryBackoffMs: [200] };

async function invoke(root: string, tool: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', { tool, params });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: Record<string, unknown> }).result;
}

/** Creates a ready task through the daemon (`svc task create`, then ready). */
export async function createReady(root: string, params: Record<string, unknown>): Promise<string> {
  const created = await invoke(root, 'operator_task_create', params);
  const id = String(created.id);
  await invoke(root, 'operator_task_status', { taskId: id, status: 'ready' });
  return id;
}

export async function statusOf(root: string, id: string): Promise<string> {
  return (await createStore({ root }).get(id)).status;
}
