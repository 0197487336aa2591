import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  completeWith,
  startCliModel,
  type CliModelServer,
  type Reply,
  type ScriptedRequest,
} from '../helpers/cli-model/server.js';
import { closeDaemons, runSvc } from '../helpers/daemon.js';
import { cleanRoots, within } from '../helpers/root.js';
import { dispatchTask, eventsOf, runLogs, startRuntimeRig, untilStatus } from './runtimes-setup.js';

// Budgets that pause and ask (docs/agent-runtimes.md, "Budgets"), with the real Claude Code: a task's budget spent
// mid-run ends the run and pauses the task; a raise brings it back, its session resumed; an agent's daily budget
// spent holds its next task until the org chart raises it.
let server: CliModelServer;
const budgets = suite('e2e.agent runtimes and budgets');
budgets.before(async () => {
  server = await startCliModel();
});
budgets.after(async () => {
  await server.close();
});
budgets.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

/** 100,000 tokens in a response at 3 $/MTok: $0.30 each (runtimes-setup.ts prices the model). */
const COSTLY = { inputTokens: 100_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

budgets(
  'a task budget spent mid-run pauses the task; approve with a raise resumes the session and it completes',
  async () => {
    let raised = false;
    let finishing = 0;
    server.usage = { ...COSTLY };
    server.script = (request: ScriptedRequest): Reply => {
      if (!raised) return { kind: 'tool', tool: 'svc_status', args: {} }; // busy work, one response after another
      finishing++;
      return finishing === 1 ? completeWith({})({ ...request, toolResults: 0 }) : { kind: 'text', text: 'Done.' };
    };
    const { root, home, daemon } = await startRuntimeRig(server, { agents: [{ id: 'coder', runtime: 'claude-code' }] });
    const env = { SVC_HOME: root, HOME: home };
    try {
      const id = await dispatchTask(root, {
        title: 'Spend carefully',
        brief: 'Work.',
        agent: 'coder',
        budget: { usd: 0.7 },
      });
      const paused = await untilStatus(root, id, 'blocked', 60_000);
      const awaiting = paused.task.metadata.awaiting as Record<string, unknown>;
      assert.equal(
        { kind: awaiting.kind, scope: awaiting.scope, unit: awaiting.unit, limit: awaiting.limit },
        { kind: 'budget', scope: 'task', unit: 'usd', limit: 0.7 },
      );
      assert.ok(Number(awaiting.spent) >= 0.7, `spent ${awaiting.spent}`);
      // the events of the pause are appended to the log a moment after its file moved
      await within(10_000, async () => (await eventsOf(root, id, 'budget.exceeded')).length > 0, 'budget.exceeded');
      const [warning] = await eventsOf(root, id, 'budget.warning');
      assert.ok(warning, 'a warning at 80 % came first');
      assert.is((await eventsOf(root, id, 'budget.exceeded')).length, 1);
      // the run is ended (SIGTERM to its group), and its usage so far recorded once
      await within(20_000, () => /^=== svc run ended: /m.test(runLogs(root, id)), 'the run ended');
      const log = runLogs(root, id);
      assert.is(log.match(/^\[svc\] ending the run: its budget is spent$/gm)?.length, 1, 'ended once');
      assert.match(log, /^=== svc run ended: (killed by SIGTERM|exit code 143); ended by svc: its budget is spent /m);
      assert.match(
        log,
        /^\[usage\] 200000 in, 0 out, cache 0 read \/ 0 written, cost \$0\.6$/m,
        'the log prices usage',
      );
      await within(10_000, async () => (await eventsOf(root, id, 'run.usage')).length === 1);
      assert.match(daemon.output(), new RegExp(`\\[AOF\\] BUDGET: ${id} "Spend carefully" spent \\$`));
      assert.is((await eventsOf(root, id, 'dispatch.failed')).length, 0, 'a budget is never a failed dispatch');
      const listed = await runSvc(env, 'task', 'list', '--awaiting', '--json');
      assert.match(listed.stdout, id);

      raised = true;
      const approved = await runSvc(env, 'task', 'approve', id, '--budget-usd', '5');
      assert.is(approved.code, 0, approved.stderr);
      await untilStatus(root, id, 'done', 60_000);
      const usage = await within(20_000, async () => {
        const events = await eventsOf(root, id, 'run.usage');
        return events.length === 2 ? events : null;
      });
      assert.is(usage[0]!.payload.sessionId, usage[1]!.payload.sessionId, 'the second run resumed the first’s session');
      const resumed = server.served.find((s) => s.main && s.request!.prompt.includes('You are continuing task'));
      assert.ok(resumed, 'the resumed run got the short prompt');
      assert.match(resumed!.request!.prompt, "the task's budget is now $5");
      const total = (await untilStatus(root, id, 'done')).task.metadata.usage as Record<string, number>;
      assert.is(total.runs, 2);
      assert.is(total.inputTokens, Number(usage[0]!.payload.inputTokens) + Number(usage[1]!.payload.inputTokens));
      assert.is(
        total.costUsd,
        Math.round((Number(usage[0]!.payload.costUsd) + Number(usage[1]!.payload.costUsd)) * 1e6) / 1e6,
      );
    } catch (err) {
      process.stderr.write(daemon.output());
      throw err;
    }
  },
);

budgets('an agent whose daily budget is spent gets no task until the org chart raises it', async () => {
  server.usage = { ...COSTLY };
  server.script = completeWith({});
  const { root, home, daemon } = await startRuntimeRig(server, {
    agents: [{ id: 'coder', runtime: 'claude-code', budget: { usdPerDay: 0.5 } }],
  });
  const env = { SVC_HOME: root, HOME: home };
  try {
    // the first task's run spends $0.60 (two responses) and completes it: the budget is spent for today
    const first = await dispatchTask(root, { title: 'First', brief: 'Work.', agent: 'coder' });
    await untilStatus(root, first, 'done');
    await within(20_000, async () => (await eventsOf(root, first, 'run.usage')).length === 1);
    const second = await dispatchTask(root, { title: 'Second', brief: 'Work.', agent: 'coder' });
    const held = await within(20_000, async () => {
      const preview = await runSvc(env, 'scheduler', 'run', '--json');
      return /"reason":\s*"budget"/.test(preview.stdout) ? preview.stdout : null;
    });
    assert.match(held, /agent coder spent \$0\.6 of \$0\.5 today \(usdPerDay\)/);
    assert.is((await untilStatus(root, second, 'ready')).status, 'ready');
    const raise = await runSvc(env, 'agent', 'list', '--json'); // the chart still loads
    assert.is(raise.code, 0, raise.stderr);
    const { readFileSync, writeFileSync } = await import('node:fs');
    const chart = `${root}/org/org-chart.yaml`;
    writeFileSync(chart, readFileSync(chart, 'utf8').replace('usdPerDay: 0.5', 'usdPerDay: 5'));
    await untilStatus(root, second, 'done', 60_000);
  } catch (err) {
    process.stderr.write(daemon.output());
    throw err;
  }
});

budgets.run();
