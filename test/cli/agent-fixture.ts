import { existsSync } from 'node:fs';
import * as assert from 'uvu/assert';
import { toPaths } from '../../lib/store/disk/paths.js';
import { SVC_BIN, writeOrg } from '../helpers/agents.js';
import { svc } from '../helpers/cli.js';

// The set-up of the agent command tests (agent.test.ts, agent-daemon.test.ts): gated agents, ready tasks, where a task is.

/** argv of an agent that completes its task once `<SVC_HOME>/go` exists (so a test decides when a run ends). */
function gatedAgent(): string[] {
  const script = `
    const fs = require('node:fs');
    const { execFileSync } = require('node:child_process');
    const params = { taskId: process.env.SVC_TASK_ID, sessionId: process.env.SVC_SESSION_ID, summary: 'done', actor: process.env.SVC_AGENT };
    const timer = setInterval(() => {
      if (!fs.existsSync(process.env.SVC_HOME + '/go')) return;
      clearInterval(timer);
      execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, 'tool', 'svc_task_complete', JSON.stringify(params)], { stdio: 'inherit' });
    }, 50);
  `;
  return [process.execPath, '-e', script];
}

/** dev and dev2 run `gatedAgent`; the poll is an hour apart, so only the pause watch and task changes make ticks. */
export function writeAgents(root: string): void {
  writeOrg(root, {
    agents: [
      { id: 'dev', name: 'Dev', command: gatedAgent() },
      { id: 'dev2', name: 'Dev 2', command: gatedAgent() },
    ],
    aof: { daemon: { bootWindowMs: 200, pollIntervalMs: 3_600_000 } },
  });
}

export async function readyTask(root: string, title: string, agent = 'dev'): Promise<string> {
  const id = (await svc(root, 'task', 'create', title, '--agent', agent)).stdout.split('\n')[0]!;
  assert.is((await svc(root, 'task', 'promote', id)).code, 0);
  return id;
}

export const listed = async (root: string) =>
  JSON.parse((await svc(root, 'task', 'list', '--all', '--json')).stdout) as { id: string; status: string }[];
export const statusOf = (root: string, id: string) =>
  ['ready', 'in-progress', 'done'].find((s) => existsSync(toPaths(root).taskFile(s as never, id)));
