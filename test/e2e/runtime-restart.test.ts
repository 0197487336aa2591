import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { completeTask, startCliModel, type CliModelServer, type Script } from '../helpers/cli-model/server.js';
import { afterPolls, closeDaemons, gate, healthy, startChild } from '../helpers/daemon.js';
import { cleanRoots, within } from '../helpers/root.js';
import { dispatchTask, eventsOf, runLogs, startRuntimeRig, untilStatus, type RuntimeRig } from './runtimes-setup.js';

// A daemon SIGKILLed during a run of an agent CLI (docs/agent-runtimes.md, "Sessions"): the run goes on; the next
// daemon watches it, or finds it ended, and records its usage once, from the stream file the CLI kept writing.
let server: CliModelServer;
const restart = suite('e2e.agent runtime across a daemon restart');
restart.before(async () => {
  server = await startCliModel();
});
restart.after(async () => {
  await server.close();
});
restart.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

/** The id the first task of a root gets (today's first): the run log to show when a test fails. */
const FIRST_TASK = `TASK-${new Date().toISOString().slice(0, 10)}-001`;

/** Three responses of 100 tokens in and 20 out, priced 3 $/MTok in and 15 $/MTok out (runtimes-setup.ts). */
const THREE_RESPONSES = { inputTokens: 300, outputTokens: 60, costUsd: (300 * 3 + 60 * 15) / 1e6 };

/**
 * svc_status, then the task's completion held until `release` opens, then a final text: the model's second answer
 * comes only when the test lets it.
 */
function heldScript(held: { open(): void }, release: Promise<void>): Script {
  return async (request) => {
    if (request.toolResults === 0) return { kind: 'tool', tool: 'svc_status', args: { compact: true } };
    if (request.toolResults > 1) return { kind: 'text', text: 'Done.' };
    held.open();
    await release;
    const [, taskId, sessionId] = /svc_task_complete\(\{ taskId: "([^"]+)", sessionId: "([^"]+)"/.exec(request.prompt)!;
    return { kind: 'tool', tool: 'svc_task_complete', args: { taskId, sessionId, summary: 'held work done' } };
  };
}

/** Starts a Claude Code agent's task and waits until its model holds the second answer; returns the task's id. */
async function heldRun(rig: RuntimeRig, held: Promise<void>): Promise<string> {
  const id = await dispatchTask(rig.root, { title: 'Work across a restart', brief: 'Finish it.', agent: 'coder' });
  await held;
  return id;
}

function daemonLog(root: string): string {
  try {
    return readFileSync(join(root, 'data', 'logs', 'daemon.log'), 'utf8');
  } catch {
    return '';
  }
}

/** The pid of the task's run, from the run record the daemon keeps in `data/runs/`. */
function runPid(root: string, id: string): number {
  const dir = join(root, 'data', 'runs');
  const name = readdirSync(dir).find((file) => file.startsWith(`${id}@`))!;
  return Number(readFileSync(join(dir, name), 'utf8').trim().split(' ')[0]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The run's log is whole: each readable line of its stream once, in order, then its end line. */
function assertWholeLog(root: string, id: string): void {
  const log = runLogs(root, id);
  const shown = log.split('\n').filter((line) => /^\[(session|call|result|text|end)\] /.test(line));
  assert.equal(
    shown,
    [
      shown[0]!,
      '[call] svc_status {"compact":true}',
      '[result] svc_status ok',
      shown.find((line) => line.startsWith('[call] svc_task_complete'))!,
      '[result] svc_task_complete ok',
      '[text] Done.',
      '[end] ok',
    ],
    log,
  );
  assert.match(shown[0]!, /^\[session\] \S+$/);
  assert.is(log.match(/^=== svc run ended: ended after its daemon restarted at \S+ ===$/gm)?.length, 1, log);
}

/** The task's usage is recorded once: one `run.usage` event, one run in `metadata.usage`, all three responses. */
async function assertRecordedOnce(root: string, id: string): Promise<void> {
  await within(20_000, async () => (await eventsOf(root, id, 'run.usage')).length > 0, 'run.usage');
  const runtimes = join(root, 'data', 'runtimes');
  await within(
    20_000,
    () => !existsSync(runtimes) || !readdirSync(runtimes).some((name) => name.startsWith(`${id}@`)),
    'the run directory removed',
  );
  await afterPolls(root, 3);
  const events = await eventsOf(root, id, 'run.usage');
  assert.is(events.length, 1);
  assert.equal(
    { inputTokens: events[0]!.payload.inputTokens, outputTokens: events[0]!.payload.outputTokens },
    { inputTokens: THREE_RESPONSES.inputTokens, outputTokens: THREE_RESPONSES.outputTokens },
  );
  const total = (await untilStatus(root, id, 'done')).task.metadata.usage as Record<string, unknown>;
  assert.equal(
    { inputTokens: total.inputTokens, outputTokens: total.outputTokens, costUsd: total.costUsd, runs: total.runs },
    { ...THREE_RESPONSES, runs: 1 },
  );
}

restart(
  'a run going on across a SIGKILL is watched by the next daemon, completes the task, its usage once',
  async () => {
    const [held, release] = [gate(), gate()];
    server.script = heldScript(held, release.promise);
    const rig = await startRuntimeRig(server, { agents: [{ id: 'coder', runtime: 'claude-code' }] });
    try {
      const id = await heldRun(rig, held.promise);
      const pid = runPid(rig.root, id);
      await rig.daemon.kill();
      assert.ok(alive(pid), 'the run outlives its daemon');
      startChild(rig.root, ['daemon', 'run'], { HOME: rig.home });
      await healthy(rig.root);
      await within(
        15_000,
        () => /still runs from before the restart; watching it/.test(daemonLog(rig.root)),
        'watching',
      );
      release.open();
      await untilStatus(rig.root, id, 'done');
      await within(30_000, () => !alive(pid), 'the run to end');
      await assertRecordedOnce(rig.root, id);
      assertWholeLog(rig.root, id);
    } catch (err) {
      process.stderr.write(`${daemonLog(rig.root)}\n${runLogs(rig.root, FIRST_TASK)}`);
      throw err;
    }
  },
);

restart('a run that ended while no daemon ran is recorded once by the next daemon at its start', async () => {
  const [held, release] = [gate(), gate()];
  server.script = heldScript(held, release.promise);
  const rig = await startRuntimeRig(server, { agents: [{ id: 'coder', runtime: 'claude-code' }] });
  try {
    const id = await heldRun(rig, held.promise);
    const pid = runPid(rig.root, id);
    await rig.daemon.kill();
    release.open();
    await within(30_000, () => !alive(pid), 'the run to end');
    startChild(rig.root, ['daemon', 'run'], { HOME: rig.home });
    await healthy(rig.root);
    await within(15_000, () => /recorded the usage of 1 agent CLI run that ended meanwhile/.test(daemonLog(rig.root)));
    await untilStatus(rig.root, id, 'done');
    await assertRecordedOnce(rig.root, id);
    assertWholeLog(rig.root, id);
  } catch (err) {
    process.stderr.write(`${daemonLog(rig.root)}\n${runLogs(rig.root, FIRST_TASK)}`);
    throw err;
  }
});

restart(
  'a run hanging across a SIGKILL is ended by the next daemon after its idle timeout; the task goes on',
  async () => {
    // svc_status, then an answer that never comes; every later run (a fresh session) completes the task
    const held = gate();
    let hanging = true;
    server.script = (request) => {
      if (!hanging) return completeTask(request);
      if (request.toolResults === 0) return { kind: 'tool', tool: 'svc_status', args: { compact: true } };
      hanging = false;
      held.open();
      return { kind: 'hang' };
    };
    const rig = await startRuntimeRig(server, {
      agents: [{ id: 'coder', runtime: 'claude-code', runIdleTimeoutMs: 3000, resume: false }],
    });
    try {
      const id = await heldRun(rig, held.promise);
      const pid = runPid(rig.root, id);
      await rig.daemon.kill();
      startChild(rig.root, ['daemon', 'run'], { HOME: rig.home });
      await healthy(rig.root);
      await within(15_000, () => !alive(pid), 'the hung run to be ended');
      assert.match(daemonLog(rig.root), /its agent CLI run gave no output for 3 s; ending it/);
      await untilStatus(rig.root, id, 'done', 30_000);
      const log = runLogs(rig.root, id);
      assert.match(log, /^\[svc\] ending the run: no output for 3 s \(runIdleTimeoutMs\)$/m);
      assert.is(log.match(/^\[call\] svc_status \{"compact":true\}$/gm)?.length, 1, log);
    } catch (err) {
      process.stderr.write(`${daemonLog(rig.root)}\n${runLogs(rig.root, FIRST_TASK)}`);
      throw err;
    }
  },
);

restart.run();
