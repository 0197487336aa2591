#!/usr/bin/env node
// A sample local agent for `svc quickstart`: it "works" for a moment, renews its lease, then
// completes its task through the svc_* tools (`svc tool ...`). Real agents do real work here.
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

const role = process.argv[2] ?? 'implementer';
const { SVC_TASK_ID: taskId, SVC_SESSION_ID: sessionId, SVC_AGENT: actor, SVC_TASK_TITLE: title, SVC_TASK_GATE: gate } = process.env;

function tool(name, params) {
  const out = execFileSync(process.env.SVC_NODE ?? process.execPath, [process.env.SVC_BIN, 'tool', name, JSON.stringify(params)], { encoding: 'utf8' });
  return JSON.parse(out);
}

console.log(`[${actor}] ${role} picked up ${taskId}: ${title}`);
await sleep(300 + Math.floor(Math.random() * 500));
tool('svc_task_update', { taskId, sessionId, actor });
await sleep(200);
const summary = role === 'reviewer' ? `Reviewed "${title}": approved.` : `Implemented "${title}".`;
const done = tool('svc_task_complete', { taskId, sessionId, actor, summary, ...(gate ? { outcome: 'complete', callerRole: role } : {}) });
console.log(`[${actor}] ${taskId} -> ${done.status}`);
