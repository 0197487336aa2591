import { readFileSync } from 'node:fs';
import * as assert from 'uvu/assert';
import { readEvents, type SvcEvent } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { createStore } from '../../lib/store/commit/store.js';
import { writeOrg } from '../helpers/agents.js';
import { call } from '../helpers/daemon.js';

// The murmur end-to-end tests' team, agents and probes (test/e2e/murmur*.test.ts).
export const FAST = { bootWindowMs: 200, pollIntervalMs: 150, spawnTimeoutMs: 1500, retryBackoffMs: [100] };

/** argv of an agent that holds its task until the task leaves in-progress (at most a minute), then exits 0. */
export function holdingAgent(): string[] {
  const script = `
    const file = require('node:path').join(process.env.SVC_HOME, 'tasks', 'in-progress', process.env.SVC_TASK_ID + '.md');
    const end = Date.now() + 60000;
    const timer = setInterval(() => { if (!require('node:fs').existsSync(file) || Date.now() > end) clearInterval(timer); }, 100);
  `;
  return [process.execPath, '-e', script];
}

/** A team `core` with member `dev` and orchestrator `lead`, and the given murmur block. */
export function writeTeam(
  root: string,
  agents: { dev: string[]; lead: string[] },
  murmur: Record<string, unknown>,
  daemon: Record<string, unknown> = {},
): void {
  writeOrg(root, {
    agents: [
      { id: 'dev', name: 'Dev', command: agents.dev, maxConcurrent: 3 },
      { id: 'lead', name: 'Lead', command: agents.lead },
    ],
    teams: [{ id: 'core', name: 'Core', members: ['dev'], orchestrator: 'lead', murmur }],
    roles: { builder: { agents: ['dev'] } },
    aof: { daemon: { ...FAST, maxConcurrentDispatches: 10, ...daemon } },
  });
}

export async function dispatch(
  root: string,
  title: string,
  route: Record<string, string> = { agent: 'dev' },
): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { title, brief: 'Do it.', ...route },
  });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

export async function statusOf(root: string, id: string): Promise<string> {
  return (await createStore({ root }).get(id)).status;
}

/** Completes an in-progress task as its lease holder (what the agent would do). */
export async function complete(root: string, id: string): Promise<void> {
  const { task } = await createStore({ root }).get(id);
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_task_complete',
    params: { taskId: id, sessionId: task.lease?.sessionId, summary: 'reviewed' },
  });
  assert.is(status, 200, JSON.stringify(body));
}

export async function reviewEvents(root: string, action?: string): Promise<SvcEvent[]> {
  return (await readEvents(root, { type: 'murmur.review' })).filter((e) => !action || e.payload.action === action);
}

export function stateOf(root: string): Record<string, unknown> {
  return JSON.parse(readFileSync(toPaths(root).murmurFile('core'), 'utf8')) as Record<string, unknown>;
}

export async function reviewTasks(root: string): Promise<string[]> {
  return (await createStore({ root }).list()).tasks
    .filter((t) => t.task.title.startsWith('Murmur review: core'))
    .map((t) => t.task.id);
}
