import { readFileSync } from 'node:fs';
import * as assert from 'uvu/assert';
import { call } from '../helpers/daemon.js';

// The check end-to-end tests' timings, check and calls (test/e2e/checks*.test.ts).
export const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 300 };

/**
 * argv of a check that records its pid (and a child's) in `<root>/check-<n>.pids`, n counting runs,
 * then waits until `<root>/release` exists (forever without it), and exits 0.
 */
export function waitingCheck(root: string): string[] {
  const script = `
    const fs = require('node:fs');
    const { spawn } = require('node:child_process');
    const n = fs.readdirSync(${JSON.stringify(root)}).filter((f) => /^check-\\d+\\.pids$/.test(f)).length + 1;
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    fs.writeFileSync(${JSON.stringify(root)} + '/check-' + n + '.pids', process.pid + ' ' + child.pid);
    console.log('check run ' + n + ' waiting');
    const timer = setInterval(() => { if (fs.existsSync(${JSON.stringify(root)} + '/release')) { child.kill(); clearInterval(timer); console.log('released'); } }, 50);
  `;
  return [process.execPath, '-e', script];
}

/** Dispatches a task to `dev` with the checks `verify`; returns its id. */
export async function dispatch(root: string, verify: string[]): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { title: 'Checked work', brief: 'Do it.', agent: 'dev', verify },
  });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

/** The pids (the check's, then its child's) the n-th run of waitingCheck recorded. */
export function pidsOf(root: string, n: number): number[] {
  return readFileSync(`${root}/check-${n}.pids`, 'utf8').split(' ').map(Number);
}
