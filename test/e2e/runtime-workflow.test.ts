import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { completeWith, startCliModel, type CliModelServer, type ScriptedRequest } from '../helpers/cli-model/server.js';
import { call, closeDaemons } from '../helpers/daemon.js';
import { makeRepo } from '../helpers/git.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';
import { dispatchTask, eventsOf, runLogs, startRuntimeRig, untilStatus } from './runtimes-setup.js';

// A workflow of two agent CLIs in one git worktree (docs/agent-runtimes.md, "Sessions"): Claude Code implements,
// Codex reviews and sends it back once; Claude Code's next run resumes its session, told what the reviewer said.
let server: CliModelServer;
const flow = suite('e2e.agent runtimes in a workflow');
flow.before(async () => {
  server = await startCliModel();
});
flow.after(async () => {
  await server.close();
});
flow.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

const BLOCKER = 'handle the empty input';

flow(
  'implement (claude-code) -> review (codex): rejected once, the implementer resumes its session, done',
  async () => {
    let reviews = 0;
    const implement = completeWith({ outcome: 'complete', summary: 'implemented' });
    server.script = (request: ScriptedRequest) => {
      if (request.dialect === 'anthropic') return implement(request);
      const review = completeWith(
        reviews === 0 ? { outcome: 'needs_review', blockers: [BLOCKER] } : { outcome: 'complete', summary: 'approved' },
      )(request);
      if (review.kind === 'tool') reviews++;
      return review;
    };
    const root = tempRoot('svc-rt-');
    const repo = makeRepo(`${root}/repo`);
    mkdirSync(`${root}/org/workflows`, { recursive: true });
    writeFileSync(
      `${root}/org/workflows/ship.yaml`,
      'workflow:\n  name: ship\n  gates:\n    - id: implement\n      role: implementer\n    - id: review\n      role: reviewer\n',
    );
    const { daemon } = await startRuntimeRig(server, {
      root,
      agents: [
        { id: 'coder', runtime: 'claude-code' },
        { id: 'reviewer', runtime: 'codex' },
      ],
      extra: {
        roles: { implementer: { agents: ['coder'] }, reviewer: { agents: ['reviewer'] } },
        aof: { workspaces: { app: { repo, base: 'main', root: `${root}/wt` } } },
      },
    });
    try {
      const { status, body } = await call(root, 'POST', '/v1/tool/invoke', {
        tool: 'svc_dispatch',
        params: { title: 'Parse the input', brief: 'Write the parser.', workflow: 'ship', workspace: 'app' },
      });
      assert.is(status, 200, JSON.stringify(body));
      const id = (body as { result: { taskId: string } }).result.taskId;
      const done = await untilStatus(root, id, 'done', 120_000);
      const history = (done.task.gate?.history ?? []) as Array<{ gate: string; outcome: string; actor: string }>;
      assert.equal(
        history.map((entry) => `${entry.gate}:${entry.outcome}:${entry.actor}`),
        [
          'implement:complete:coder',
          'review:needs_review:reviewer',
          'implement:complete:coder',
          'review:complete:reviewer',
        ],
      );
      // The implementer's second run continued its first: its first request held the earlier call and its result.
      const implementer = server.served.filter((served) => served.main && served.dialect === 'anthropic');
      const resumed = implementer.find((served) => served.request!.prompt.includes('You are continuing task'));
      assert.ok(resumed, 'the implementer got the resume prompt');
      assert.is(resumed!.request!.toolResults, 1, 'the earlier call and its result are in the conversation');
      assert.match(resumed!.request!.prompt, `gate review ended needs_review by reviewer: ${BLOCKER}`);
      assert.match(JSON.stringify(resumed!.request!.body), /mcp__svc__svc_task_complete/);
      assert.ok(existsSync(`${root}/wt`), 'the runs worked in the task’s worktree');
      // One CLI session per agent across the runs, and each run's usage counted once.
      const usage = await within(30_000, async () => {
        const events = await eventsOf(root, id, 'run.usage');
        return events.length === 4 ? events : null;
      });
      const sessions = (agent: string) =>
        new Set(usage.filter((event) => event.payload.agent === agent).map((event) => event.payload.sessionId));
      assert.is(sessions('coder').size, 1, 'the implementer resumed the same session');
      assert.is(sessions('reviewer').size, 1, 'the reviewer resumed the same thread');
      const total = (await untilStatus(root, id, 'done')).task.metadata.usage as { runs: number; inputTokens: number };
      assert.is(total.runs, 4);
      assert.is(
        total.inputTokens,
        usage.reduce((sum, event) => sum + Number(event.payload.inputTokens), 0),
      );
      assert.match(runLogs(root, id), /\[resume\] continuing the CLI's session/);
    } catch (err) {
      process.stderr.write(daemon.output());
      throw err;
    }
  },
);

flow(
  'a session whose files are gone is not resumed: the next run starts fresh with the whole prompt, and says so',
  async () => {
    let first = true;
    server.script = (request: ScriptedRequest) => {
      if (request.dialect === 'anthropic' && first) {
        first = false;
        return { kind: 'text', text: 'Not now.' }; // the run ends without completing: a failed dispatch, tried again
      }
      return completeWith({})(request);
    };
    const { root, home, daemon } = await startRuntimeRig(server, {
      agents: [{ id: 'coder', runtime: 'claude-code' }],
      daemon: { retryBackoffMs: [3000] },
    });
    try {
      const id = await dispatchTask(root, { title: 'Try twice', brief: 'Finish it.', agent: 'coder' });
      const [failed] = await within(30_000, async () => {
        const events = await eventsOf(root, id, 'dispatch.failed');
        return events.length ? events : null;
      });
      assert.match(String(failed!.payload.reason), /^ended_without_completion/);
      const [usage] = await within(10_000, async () => {
        const events = await eventsOf(root, id, 'run.usage');
        return events.length ? events : null;
      });
      rmSync(join(home, '.claude', 'projects'), { recursive: true, force: true }); // the CLI's transcripts, gone
      await untilStatus(root, id, 'done');
      const log = runLogs(root, id);
      assert.match(log, `[resume] the CLI's session ${usage!.payload.sessionId} cannot be resumed`);
      const last = server.served.filter((served) => served.main && served.dialect === 'anthropic').at(-2)!;
      assert.is(last.request!.toolResults, 0, 'a fresh conversation');
      assert.not.match(last.request!.prompt, 'You are continuing task');
      assert.match(last.request!.prompt, `You are assigned task ${id}`);
    } catch (err) {
      process.stderr.write(daemon.output());
      throw err;
    }
  },
);

flow.run();
