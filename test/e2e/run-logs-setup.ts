import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/commit/store.js';
import { SVC_BIN, writeOrg } from '../helpers/agents.js';
import { healthy, runSvc, startChild } from '../helpers/daemon.js';
import { tempRoot, within } from '../helpers/root.js';

// The run log end-to-end tests' agent and daemon (test/e2e/run-logs*.test.ts).
export const FAST = { bootWindowMs: 200, pollIntervalMs: 200, retryBackoffMs: [100] };

/** argv of an agent that runs `body` (JavaScript, with `run` the number of this run from 1 and `complete()` at hand). */
export function agent(body: string): string[] {
  const script = `
    const fs = require('node:fs');
    const { execFileSync } = require('node:child_process');
    const counter = process.env.SVC_HOME + '/runs-' + process.env.SVC_TASK_ID;
    const run = (fs.existsSync(counter) ? Number(fs.readFileSync(counter, 'utf8')) : 0) + 1;
    fs.writeFileSync(counter, String(run));
    const waitFor = (file) => { while (!fs.existsSync(process.env.SVC_HOME + '/' + file)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); };
    const complete = () => execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, 'tool', 'svc_task_complete', JSON.stringify({ taskId: process.env.SVC_TASK_ID, sessionId: process.env.SVC_SESSION_ID, actor: process.env.SVC_AGENT })], { stdio: 'ignore' });
    ${body}
  `;
  return [process.execPath, '-e', script];
}

/** Starts a daemon whose agent `dev` runs `body`, and creates a task for it; returns the root, the CLI env and the id. */
export async function start(
  body: string,
  daemon: Record<string, unknown> = {},
): Promise<{ root: string; env: Record<string, string>; id: string }> {
  const root = tempRoot();
  writeOrg(root, {
    agents: [{ id: 'dev', name: 'Dev', command: agent(body) }],
    aof: { daemon: { ...FAST, ...daemon } },
  });
  startChild(root);
  await healthy(root);
  const env = { SVC_HOME: root, HOME: root };
  const created = await runSvc(env, 'task', 'create', 'Logged work', '--agent', 'dev', '--json');
  assert.is(created.code, 0, created.stderr);
  return { root, env, id: (JSON.parse(created.stdout) as { id: string }).id };
}

/** Waits until task `id` is done. */
export async function doneOf(root: string, id: string): Promise<void> {
  await within(20_000, async () => (await createStore({ root }).get(id)).status === 'done', `${id} to be done`);
}
