import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createCommandAdapter } from '../../lib/adapters/command.js';
import type { SpawnRequest } from '../../lib/core/spawn.js';
import { writeOrg } from '../helpers/agents.js';
import { cleanRoots, tempRoot } from '../helpers/root.js';

/** A run of `script` (node -e) by agent `dev` of a task without a worktree; resolves with the run's end. */
async function runAgent(root: string, script: string, sessionId: string) {
  writeOrg(root, { agents: [{ id: 'dev', name: 'Dev', command: [process.execPath, '-e', script] }] });
  const adapter = createCommandAdapter({
    root,
    socketPath: `${root}/data/daemon.sock`,
    loadOrg: async () => (await import('../../lib/org/org-chart.js')).loadOrg(root),
    baseEnv: process.env,
    logFile: `${root}/data/logs/agents.log`,
  });
  const request: SpawnRequest = {
    id: sessionId,
    taskId: 'TASK-2026-11-21-001',
    agent: 'dev',
    sessionId,
    prompt: 'Do it.',
    task: { title: 'Scratch', priority: 'normal', routing: { agent: 'dev' }, body: '' },
  };
  try {
    return await (await adapter.spawn(request)).ended!;
  } finally {
    adapter.close();
  }
}

const command = suite('adapters.createCommandAdapter');
command.after.each(cleanRoots);

command(
  "a run without a worktree works in a scratch directory of its own, kept with what it wrote, named by its log's end line",
  async () => {
    const root = tempRoot();
    const end = await runAgent(root, `require('node:fs').writeFileSync('notes.txt', process.cwd())`, 's1');
    assert.is(end.ok, true);
    const scratch = `${root}/data/scratch/TASK-2026-11-21-001/s1`;
    assert.not.ok(existsSync(`${root}/notes.txt`), 'nothing lands beside tasks/');
    assert.is(readFileSync(`${scratch}/notes.txt`, 'utf8'), scratch);
    const log = readFileSync(`${root}/data/logs/runs/TASK-2026-11-21-001/s1-1.log`, 'utf8');
    assert.match(log, new RegExp(`=== svc run ended: exit code 0; its files are kept in ${scratch} at \\S+ ===\\n$`));
  },
);

command('a run that writes nothing leaves no scratch directory behind', async () => {
  const root = tempRoot();
  const end = await runAgent(root, `process.exit(3)`, 's2');
  assert.equal([end.ok, end.exitCode], [false, 3]);
  assert.not.ok(
    existsSync(`${root}/data/scratch/TASK-2026-11-21-001`),
    "the empty directory and the task's folder are removed",
  );
  assert.ok(readdirSync(`${root}/data/logs/runs/TASK-2026-11-21-001`).length === 1);
});

command.run();
