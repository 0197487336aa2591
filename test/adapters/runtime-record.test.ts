import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RuntimeRunRecord } from '../../lib/adapters/runtime-hooks.js';
import { settleRuntimeRuns, writeRuntimeRecord } from '../../lib/adapters/runtime-record.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// The runs of agent CLIs found ended with no daemon watching them, recorded once (docs/agent-runtimes.md).
const settle = suite('adapters.settleRuntimeRuns');
settle.after.each(() => cleanRoots());

/** A run's directory under `dir` with its record; its stream file empty. */
function runDir(root: string, taskId: string, sessionId: string): string {
  const dir = join(root, 'data', 'runtimes', `${taskId}@${sessionId}`);
  mkdirSync(dir, { recursive: true });
  const rawPath = join(root, `${sessionId}-1.stream.jsonl`);
  writeFileSync(rawPath, '');
  writeRuntimeRecord(dir, {
    taskId,
    sessionId,
    run: `${sessionId}-1`,
    agent: 'coder',
    runtime: 'claude-code',
    rawPath,
    model: 'scripted-model',
    home: root,
    cwd: root,
    stateDir: root,
  });
  return dir;
}

settle('a run whose processes still run is left alone though no daemon lists it (one being started)', async () => {
  const root = tempRoot('svc-settle-');
  const starting = runDir(root, 'T-1', 'session-starting');
  const ended = runDir(root, 'T-2', 'session-ended');
  const child = spawn('sleep', ['30'], {
    env: { ...process.env, SVC_SESSION_ID: 'session-starting' },
    stdio: 'ignore',
  });
  try {
    const marked = () =>
      readFileSync(`/proc/${child.pid}/environ`, 'latin1').includes('SVC_SESSION_ID=session-starting');
    await within(5000, () => marked(), 'the process with its marker');
    const recorded: RuntimeRunRecord[] = [];
    const hooks = { onRecord: async (record: RuntimeRunRecord) => void recorded.push(record) };
    const count = await settleRuntimeRuns(join(root, 'data', 'runtimes'), { live: new Set(), hooks });
    assert.is(count, 1);
    assert.equal(
      recorded.map((record) => record.run),
      ['session-ended-1'],
    );
    assert.ok(existsSync(starting), 'the starting run keeps its directory');
    assert.not.ok(existsSync(ended), 'the ended run is settled');
  } finally {
    child.kill('SIGKILL');
  }
});

settle.run();
