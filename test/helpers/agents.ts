import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dumpYaml } from '../../lib/fs/frontmatter.js';

/** The built CLI, which agent processes call to complete their tasks. */
export const SVC_BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

/** argv of an agent that completes its task through `svc tool svc_task_complete` and exits 0. */
export function completingAgent(summary = 'done by test agent', extra: Record<string, unknown> = {}): string[] {
  const script = `
    const { execFileSync } = require('node:child_process');
    const params = { taskId: process.env.SVC_TASK_ID, sessionId: process.env.SVC_SESSION_ID, summary: ${JSON.stringify(summary)}, actor: process.env.SVC_AGENT, ...${JSON.stringify(extra)} };
    execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, 'tool', 'svc_task_complete', JSON.stringify(params)], { stdio: 'inherit' });
  `;
  return [process.execPath, '-e', script];
}

/** argv of an agent that exits without completing (a failed attempt). */
export function quittingAgent(code = 1): string[] {
  return [process.execPath, '-e', `process.exit(${code})`];
}

/** Writes `org/org-chart.yaml` under root. */
export function writeOrg(root: string, org: Record<string, unknown>): void {
  mkdirSync(`${root}/org`, { recursive: true });
  writeFileSync(`${root}/org/org-chart.yaml`, dumpYaml({ schemaVersion: 1, ...org }));
}

/** argv of an agent that stays busy for `ms` and then exits without completing. */
export function sleepingAgent(ms: number): string[] {
  return [process.execPath, '-e', `setTimeout(() => {}, ${ms})`];
}

/**
 * argv of an agent that writes its pid to `<SVC_HOME>/agent-<task id>.pid`, then waits for a
 * minute. On SIGTERM it writes `<...>.term` and exits, unless `ignoreTerm` (then only SIGKILL ends it).
 */
export function lingeringAgent(ignoreTerm = false): string[] {
  const script = `
    const fs = require('node:fs');
    const base = process.env.SVC_HOME + '/agent-' + process.env.SVC_TASK_ID;
    process.on('SIGTERM', () => { fs.writeFileSync(base + '.term', 'SIGTERM'); if (!${ignoreTerm}) process.exit(143); });
    fs.writeFileSync(base + '.pid', String(process.pid));
    setTimeout(() => {}, 60000);
  `;
  return [process.execPath, '-e', script];
}

/**
 * argv of an agent that appends its session to `<SVC_HOME>/ran-<task id>` (one line per run), then
 * completes its task, retrying while the task is `locked` (as the error's hint says to: a writer
 * killed mid-commit leaves its lock until it counts as stale).
 */
export function recordingAgent(): string[] {
  const script = `
    const { appendFileSync } = require('node:fs');
    const { execFileSync } = require('node:child_process');
    appendFileSync(process.env.SVC_HOME + '/ran-' + process.env.SVC_TASK_ID, process.env.SVC_SESSION_ID + '\\n');
    const params = { taskId: process.env.SVC_TASK_ID, sessionId: process.env.SVC_SESSION_ID, summary: 'done', actor: process.env.SVC_AGENT };
    for (let attempt = 1; ; attempt++) {
      try {
        execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, 'tool', 'svc_task_complete', JSON.stringify(params)], { stdio: 'pipe' });
        break;
      } catch (err) {
        if (attempt === 10 || !/locked/.test(String(err.stdout) + String(err.stderr))) throw err;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
      }
    }
  `;
  return [process.execPath, '-e', script];
}

/**
 * argv of an agent that prints `working on <task id>` (to its log), waits until the file
 * `<SVC_HOME>/go-<task id>` exists, then completes its task: a test sees it in progress first.
 */
export function waitingAgent(): string[] {
  const script = `
    const { existsSync } = require('node:fs');
    const { execFileSync } = require('node:child_process');
    const id = process.env.SVC_TASK_ID;
    console.log('working on ' + id);
    const timer = setInterval(() => {
      if (!existsSync(process.env.SVC_HOME + '/go-' + id)) return;
      clearInterval(timer);
      const params = { taskId: id, sessionId: process.env.SVC_SESSION_ID, summary: 'done', actor: process.env.SVC_AGENT };
      execFileSync(process.execPath, [${JSON.stringify(SVC_BIN)}, 'tool', 'svc_task_complete', JSON.stringify(params)], { stdio: 'inherit' });
    }, 50);
  `;
  return [process.execPath, '-e', script];
}
