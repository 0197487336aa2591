import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as assert from 'uvu/assert';
import { isAlive } from '../../lib/daemon/instance/pid.js';
import { readEvents } from '../../lib/store/events/log.js';
import { writeOrg } from '../helpers/agents.js';
import { call, closeDaemons, healthy, startChild } from '../helpers/daemon.js';
import { cleanRoots, within } from '../helpers/root.js';

// The set-up of the one-run-per-task tests (run-once.test.ts, run-once-restarts.test.ts): a sleeping
// agent whose runs are counted, a dispatched task, the pids of its runs.
//
// One run per task, always (docs/scheduler.md): a task is dispatched again only once every
// earlier run of it is gone, whatever ended the earlier run's lease.
export const FAST = { bootWindowMs: 200, pollIntervalMs: 200, agentStopGraceMs: 2000 };
const started: number[] = [];

/**
 * argv of an agent that writes its pid to `<SVC_HOME>/agent-<task id>.<n>.pid` (n counts its runs),
 * then sleeps without heartbeats. On SIGTERM it appends to `...term` and exits after `lingerMs`, so
 * the old run is still alive for a while after its lease is gone.
 */
export function sleepingAgent(lingerMs: number): string[] {
  const script = `
    const fs = require('node:fs');
    const base = process.env.SVC_HOME + '/agent-' + process.env.SVC_TASK_ID;
    let n = 1;
    while (fs.existsSync(base + '.' + n + '.pid')) n++;
    fs.writeFileSync(base + '.' + n + '.pid', String(process.pid));
    process.on('SIGTERM', () => { fs.appendFileSync(base + '.term', process.env.SVC_SESSION_ID + '\\n'); setTimeout(() => process.exit(143), ${lingerMs}); });
    setTimeout(() => {}, 120000);
  `;
  return [process.execPath, '-e', script];
}

/** Pids of the live processes whose environment names task `id` of `root` (`SVC_TASK_ID`, `SVC_HOME`): other roots on this machine reuse ids. */
export function agentsOf(root: string, id: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (
        / [ZX] /.test(
          readFileSync(`/proc/${pid}/stat`, 'utf8')
            .slice(0, 80)
            .replace(/^.*\) /s, ' '),
        )
      )
        continue;
      const env = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      if (env.includes(`SVC_TASK_ID=${id}`) && env.includes(`SVC_HOME=${root}`)) found.push(Number(pid));
    } catch {
      // gone, or another user's
    }
  }
  return found;
}

/** A daemon with one agent `dev` that sleeps until ended, and one task dispatched to it. */
export async function startDispatched(root: string): Promise<{ first: ReturnType<typeof startChild>; id: string }> {
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: sleepingAgent(0) }], aof: { daemon: FAST } });
  const first = startChild(root);
  await healthy(root);
  return { first, id: await dispatch(root) };
}

export async function dispatch(root: string): Promise<string> {
  const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
    tool: 'svc_dispatch',
    params: { title: 'Long work', brief: 'Take your time.', agent: 'dev' },
  });
  assert.is(status, 200, JSON.stringify(body));
  return (body as { result: { taskId: string } }).result.taskId;
}

export async function agentPid(root: string, id: string, n = 1): Promise<number> {
  const file = `${root}/agent-${id}.${n}.pid`;
  const pid = await within(
    20_000,
    () => existsSync(file) && Number(readFileSync(file, 'utf8')),
    `run ${n} of ${id} to start`,
  );
  started.push(pid);
  return pid;
}

export async function sessionOf(root: string, id: string): Promise<string> {
  const events = await within(
    15_000,
    async () => (await readEvents(root, { taskId: id, type: 'task.dispatched' })).at(-1),
    'task.dispatched',
  );
  return String(events.payload.sessionId);
}

/** Ends every run the tests started, then the daemons, then removes the roots (each test's `after.each`). */
export async function endRuns(): Promise<void> {
  for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await closeDaemons();
  cleanRoots();
}
