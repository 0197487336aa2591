import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RuntimeName } from '../../lib/org/runtimes.js';
import { startCliModel, type CliModelServer } from '../helpers/cli-model/server.js';
import { closeDaemons } from '../helpers/daemon.js';
import { cleanRoots, within } from '../helpers/root.js';
import { dispatchTask, eventsOf, runLogs, startRuntimeRig, untilStatus } from './runtimes-setup.js';

// Each agent CLI as a worker of svc (docs/agent-runtimes.md): the real program from npm, against the file's scripted
// model server, calls svc's MCP tools and completes its task; its run log, usage and cost are kept.
let server: CliModelServer;
const runtimes = suite('e2e.agent runtimes');
runtimes.before(async () => {
  server = await startCliModel();
});
runtimes.after(async () => {
  await server.close();
});
runtimes.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

/** Two responses of 100 tokens in and 20 out, at 3 $/MTok in and 15 $/MTok out (runtimes-setup.ts). */
const TWO_RESPONSES = { inputTokens: 200, outputTokens: 40, costUsd: (200 * 3 + 40 * 15) / 1e6 };
const ONLY = process.env.SVC_TEST_RUNTIME;

for (const runtime of ['claude-code', 'codex', 'gemini'] as RuntimeName[]) {
  if (ONLY && ONLY !== runtime) continue;
  runtimes(
    `${runtime}: a task runs to done through svc_task_complete, its calls logged, its usage priced`,
    async () => {
      const { root, daemon } = await startRuntimeRig(server, { agents: [{ id: 'coder', runtime }] });
      try {
        const id = await dispatchTask(root, { title: `Work for ${runtime}`, brief: 'Finish it.', agent: 'coder' });
        await untilStatus(root, id, 'done');
        // the run's usage is recorded once it has ended and its stream was read to the end; then its log ends
        const [usage] = await within(30_000, async () => {
          const events = await eventsOf(root, id, 'run.usage');
          return events.length && /^=== svc run ended/m.test(runLogs(root, id)) ? events : null;
        });
        const log = runLogs(root, id);
        assert.match(log, /^\[call\] svc_task_complete \{/m);
        assert.match(log, /^\[result\] svc_task_complete ok$/m);
        assert.match(log, /^\[session\] \S+$/m);
        assert.match(log, /^=== svc run ended: exit code 0 /m);
        assert.equal(
          {
            agent: usage!.payload.agent,
            runtime: usage!.payload.runtime,
            inputTokens: usage!.payload.inputTokens,
            outputTokens: usage!.payload.outputTokens,
            costUsd: usage!.payload.costUsd,
          },
          { agent: 'coder', runtime, ...TWO_RESPONSES },
        );
        const total = (await untilStatus(root, id, 'done')).task.metadata.usage as Record<string, unknown>;
        assert.equal(
          {
            inputTokens: total.inputTokens,
            outputTokens: total.outputTokens,
            costUsd: total.costUsd,
            runs: total.runs,
          },
          { ...TWO_RESPONSES, runs: 1 },
        );
      } catch (err) {
        process.stderr.write(daemon.output());
        process.stderr.write(
          runLogs(root, (await eventsOf(root, '', 'task.created').catch(() => []))[0]?.taskId ?? ''),
        );
        throw err;
      }
    },
  );
}

runtimes.run();
