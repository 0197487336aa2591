import { existsSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { createStore } from '../../lib/store/commit/store.js';
import { SVC_BIN } from '../helpers/agents.js';
import { closeDaemons, runSvc, startChild } from '../helpers/daemon.js';
import { cleanRoots, within } from '../helpers/root.js';
import { awaitingAt, setUpShip } from './approval-setup.js';

// An agent cannot decide an approval gate, its own or another's: a real local command agent,
// dispatched by a real daemon, tries every way svc offers it (docs/approvals-and-logs.md, "Who can decide").

/**
 * argv of an agent that tries to close its task before the approval gate ahead (by `svc task close`
 * and `svc task update --status done`, under its own session), completes its gate, then, its run
 * still alive, tries to approve, reject and close its task: with its environment, and from a
 * process with the run's variables scrubbed. It writes each answer to `<SVC_HOME>/agent-tries.json`.
 */
function deciderAgent(): string[] {
  const script = `
    const { execFileSync, spawnSync } = require('node:child_process');
    const { writeFileSync } = require('node:fs');
    const bin = ${JSON.stringify(SVC_BIN)};
    const id = process.env.SVC_TASK_ID;
    const svc = (args, env) => { const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' }); return { code: r.status, stdout: r.stdout, stderr: r.stderr }; };
    const scrubbed = { SVC_HOME: process.env.SVC_HOME, HOME: process.env.HOME ?? '', PATH: process.env.PATH ?? '' };
    const session = process.env.SVC_SESSION_ID;
    const early = {
      closeEarly: svc(['task', 'close', id, '--session', session], scrubbed),
      doneEarly: svc(['task', 'update', id, '--status', 'done', '--session', session], scrubbed),
    };
    execFileSync(process.execPath, [bin, 'tool', 'svc_task_complete', JSON.stringify({ taskId: id, sessionId: session, summary: 'done', outcome: 'complete', actor: process.env.SVC_AGENT })]);
    const tries = {
      ...early,
      own: svc(['tool', 'svc_task_approve', JSON.stringify({ taskId: id, actor: process.env.SVC_AGENT })], process.env),
      asOperator: svc(['tool', 'svc_task_approve', JSON.stringify({ taskId: id, actor: 'operator' })], process.env),
      scrubbedApprove: svc(['task', 'approve', id, '--by', 'alice'], scrubbed),
      scrubbedReject: svc(['task', 'reject', id, '--note', 'redo', '--by', 'alice'], scrubbed),
      scrubbedClose: svc(['task', 'close', id], scrubbed),
      help: svc(['tool', '--help'], process.env),
    };
    writeFileSync(process.env.SVC_HOME + '/agent-tries.json', JSON.stringify(tries));
  `;
  return [process.execPath, '-e', script];
}

type Try = { code: number; stdout: string; stderr: string };

const agents = suite('e2e.approval gates and agents');
agents.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

agents(
  'an agent run closing its task before its approval gate, or approving, rejecting or closing it there, is refused, even with its environment scrubbed, and nothing moves',
  async () => {
    const { root, env, id } = await setUpShip(startChild, { agent: deciderAgent(), approvals: ['signoff'] });
    const file = `${root}/agent-tries.json`;
    await within(30_000, () => existsSync(file), 'the agent to have tried');
    const tries = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Try>;
    for (const name of [
      'closeEarly',
      'doneEarly',
      'own',
      'asOperator',
      'scrubbedApprove',
      'scrubbedReject',
      'scrubbedClose',
    ]) {
      const tried = tries[name]!;
      assert.is(tried.code, 1, `${name}: ${tried.stdout}`);
      assert.match(
        tried.stderr,
        /this call comes from (an agent run|a run of agent dev) \(task TASK-[\d-]+, session [0-9a-f-]+\): an agent does not decide an approval gate/,
        `${name}: ${tried.stderr}`,
      );
    }
    assert.match(tries.help!.stdout, /svc_task_complete/);
    assert.not.match(
      tries.help!.stdout,
      /svc_task_approve|svc_task_reject/,
      'svc tool names only the agent tools to a run',
    );
    await awaitingAt(root, id, 'signoff');
    const made = (await readEvents(root, { taskId: id })).filter(
      (e) => e.type === 'gate.approved' || e.type === 'gate.rejected' || e.type === 'task.completed',
    );
    assert.equal(made, [], 'no decision was made');

    const named = await runSvc(env, 'task', 'approve', id, '--by', 'dev');
    assert.is(named.code, 1, named.stdout);
    assert.match(
      named.stderr,
      /actor `dev` is an agent of the org chart, and an agent does not decide an approval gate/,
    );
    const approved = await runSvc(env, 'task', 'approve', id, '--by', 'alice');
    assert.is(approved.stdout, `${id} approved at gate signoff: now done\n`);
    assert.is((await createStore({ root }).get(id)).status, 'done');
  },
);

agents.run();
