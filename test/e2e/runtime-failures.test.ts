import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RuntimeName } from '../../lib/org/runtimes.js';
import { startCliModel, type CliModelServer, type Script } from '../helpers/cli-model/server.js';
import { closeDaemons } from '../helpers/daemon.js';
import { cleanRoots } from '../helpers/root.js';
import { dispatchTask, eventsOf, runLogs, startRuntimeRig, untilStatus, type RuntimeAgent } from './runtimes-setup.js';

// Runs of the agent CLIs that cannot finish (docs/agent-runtimes.md, "What a run says"): a model server answering
// 500s, one that is down, a tool the agent's permissions deny. Each run is a failed dispatch with the CLI's own
// message, none stays in progress past the run idle timeout, and the task deadletters after 3 in a row.
let server: CliModelServer;
const failures = suite('e2e.agent runtime failures');
failures.before(async () => {
  server = await startCliModel();
});
failures.after(async () => {
  await server.close();
});
failures.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

const IDLE_MS = 3000;
/** How long 3 runs may take: each within the idle timeout, the stop grace and a CLI's start. */
const THREE_RUNS_MS = 3 * (IDLE_MS + 8000);
const overloaded: Script = () => ({ kind: 'error', status: 500, message: 'scripted overload' });

/** Each CLI's agent, its retries lowered where the CLI lets a user do it (Gemini CLI's are svc's settings). */
const FAILING: Record<RuntimeName, Omit<RuntimeAgent, 'id' | 'runtime'>> = {
  'claude-code': { env: { CLAUDE_CODE_MAX_RETRIES: '0' }, runIdleTimeoutMs: IDLE_MS },
  codex: { runIdleTimeoutMs: IDLE_MS },
  gemini: { runIdleTimeoutMs: IDLE_MS },
};

/** Codex's own retries, off in the user's config of the HOME the daemon runs with. */
function codexWithoutRetries(home: string): void {
  mkdirSync(join(home, '.codex'), { recursive: true });
  writeFileSync(
    join(home, '.codex', 'config.toml'),
    '[model_providers.svc_base_url]\nrequest_max_retries = 0\nstream_max_retries = 0\n',
  );
}

/** Each run of the log (its start and end lines) ended within the idle timeout and the stop grace. */
function assertRunsWithinIdle(log: string): void {
  const starts = [...log.matchAll(/^=== svc run: .*, started (\S+) ===$/gm)].map((m) => Date.parse(m[1]!));
  const ends = [...log.matchAll(/^=== svc run ended: .* at (\S+) ===$/gm)].map((m) => Date.parse(m[1]!));
  assert.is(ends.length, 3, log);
  starts.sort();
  ends.sort();
  starts.forEach((start, n) =>
    assert.ok(ends[n]! - start < IDLE_MS + 5000, `run ${n + 1} took ${ends[n]! - start} ms`),
  );
}

/** Dispatches a task to `coder`; waits for its deadletter; returns its 3 failed dispatches' reasons. */
async function deadlettered(root: string): Promise<{ id: string; reasons: string[] }> {
  const id = await dispatchTask(root, { title: 'Work that cannot finish', brief: 'Finish it.', agent: 'coder' });
  await untilStatus(root, id, 'deadletter', THREE_RUNS_MS);
  const failed = await eventsOf(root, id, 'dispatch.failed');
  return { id, reasons: failed.map((event) => String(event.payload.reason)) };
}

for (const runtime of ['claude-code', 'codex', 'gemini'] as RuntimeName[]) {
  failures(
    `${runtime}: a model server answering 500s fails each run with the CLI's message; deadletter after 3`,
    async () => {
      server.script = overloaded;
      const rig = await startRuntimeRig(server, { agents: [{ id: 'coder', runtime, ...FAILING[runtime] }] });
      if (runtime === 'codex') codexWithoutRetries(rig.home);
      const { id, reasons } = await deadlettered(rig.root).catch((err) => {
        process.stderr.write(rig.daemon.output());
        throw err;
      });
      assert.is(reasons.length, 3, reasons.join('\n'));
      const expected: Record<RuntimeName, RegExp> = {
        // Claude Code ends at once with its API error
        'claude-code': /^run_failed: API Error: 500\b.*scripted overload/,
        // Codex, its retries off, ends the turn failed with its own words for a 5xx
        codex: /^run_failed: We.re currently experiencing high demand/,
        // Gemini CLI retries on stderr only, minutes long: the idle timeout ends it
        gemini: /^run_hung: no output for 3 s/,
      };
      for (const reason of reasons) assert.match(reason, expected[runtime], reason);
      assertRunsWithinIdle(runLogs(rig.root, id));
    },
  );
}

failures(
  'codex: a model server that is down ends each run as hung with its last notice; deadletter after 3',
  async () => {
    const down = await startCliModel();
    await down.close(); // its port now refuses connections
    const rig = await startRuntimeRig(down, { agents: [{ id: 'coder', runtime: 'codex', runIdleTimeoutMs: IDLE_MS }] });
    const { id, reasons } = await deadlettered(rig.root);
    assert.is(reasons.length, 3, reasons.join('\n'));
    // its last error: "Reconnecting... waiting for network", or its warning about the model when that has not come yet
    for (const reason of reasons) assert.match(reason, /^run_hung: no output for 3 s; last: \S/, reason);
    assertRunsWithinIdle(runLogs(rig.root, id));
  },
);

failures('claude-code: a model server that is down fails each run at once with the CLI message', async () => {
  const down = await startCliModel();
  await down.close();
  const rig = await startRuntimeRig(down, {
    agents: [{ id: 'coder', runtime: 'claude-code', ...FAILING['claude-code'] }],
  });
  const { reasons } = await deadlettered(rig.root);
  assert.is(reasons.length, 3, reasons.join('\n'));
  for (const reason of reasons) assert.match(reason, /^run_failed: API Error: /, reason);
});

/** A call of a CLI's own file-writing tool first; a final text once its (refused) result came back. */
const writer =
  (tool: string, args: Record<string, unknown>): Script =>
  (request) =>
    request.toolResults > 0 ? { kind: 'text', text: 'Done.' } : { kind: 'tool', tool, args };

failures('gemini: read-only denies write_file; the run fails as tool_denied naming it', async () => {
  server.script = writer('write_file', { file_path: 'notes.txt', content: 'not allowed' });
  const rig = await startRuntimeRig(server, {
    agents: [{ id: 'coder', runtime: 'gemini', permissions: 'read-only', resume: false }],
  });
  const { id, reasons } = await deadlettered(rig.root);
  assert.is(reasons.length, 3, reasons.join('\n'));
  for (const reason of reasons) assert.match(reason, /^tool_denied: permission denied: write_file\b/, reason);
  assert.is((await eventsOf(rig.root, id, 'task.completed')).length, 0);
});

failures('claude-code: read-only denies a Write; the run fails as tool_denied naming it', async () => {
  server.script = writer('Write', { file_path: '/tmp/svc-denied-write.txt', content: 'not allowed' });
  const rig = await startRuntimeRig(server, {
    agents: [{ id: 'coder', runtime: 'claude-code', permissions: 'read-only', resume: false }],
  });
  const { id, reasons } = await deadlettered(rig.root);
  assert.is(reasons.length, 3, reasons.join('\n'));
  for (const reason of reasons) assert.match(reason, /^tool_denied: permission denied: Write\b/, reason);
});

failures.run();
