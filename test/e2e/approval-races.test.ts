import { spawn } from 'node:child_process';
import { renameSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readEvents } from '../../lib/store/events/log.js';
import { toPaths } from '../../lib/store/disk/paths.js';
import { createStore } from '../../lib/store/commit/store.js';
import { SVC_BIN } from '../helpers/agents.js';
import { afterPolls, closeDaemons, runSvc, startChild } from '../helpers/daemon.js';
import { cleanRoots, within } from '../helpers/root.js';
import { awaitingAt, setUpShip } from './approval-setup.js';

// Decisions name the gate they decide and are applied only while the task waits there: real
// `svc` processes deciding at once against a real daemon (docs/approvals-and-logs.md, "Deciding").

/** Runs the built `svc` as a process of its own. */
function svcProcess(root: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SVC_BIN, ...args], {
      env: { ...process.env, SVC_HOME: root, HOME: root, DEBUG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function decisions(root: string, id: string): Promise<unknown[][]> {
  const events = await readEvents(root, { taskId: id });
  return events
    .filter((e) => e.type === 'gate.approved' || e.type === 'gate.rejected')
    .map((e) => [e.type, e.payload.gate, e.payload.by]);
}

const races = suite('e2e.approval decisions at once');
races.after.each(async () => {
  await closeDaemons();
  cleanRoots();
});

races(
  'ten people approving the same gate at once pass that gate once; a bare approval of a two-approval-gate task is refused',
  async () => {
    const { root, env, id } = await setUpShip(startChild);
    await awaitingAt(root, id, 'sign1');
    const bare = await runSvc(env, 'task', 'approve', id);
    assert.is(bare.code, 1, bare.stdout);
    assert.match(
      bare.stderr,
      /has 2 approval gates \(sign1, sign2\): a decision must name the gate it decides, and it waits at gate `sign1`/,
    );
    assert.match(bare.stderr, new RegExp(`svc task approve ${id} --gate sign1`));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        svcProcess(root, ['task', 'approve', id, '--gate', 'sign1', '--by', `person${n}`, '--json']),
      ),
    );
    for (const answer of answers) assert.is(answer.code, 0, answer.stderr);
    const results = answers.map(
      (answer) => JSON.parse(answer.stdout) as { changed: boolean; message: string; at: string },
    );
    assert.is(results.filter((result) => result.changed).length, 1, JSON.stringify(results));
    const winner = (await decisions(root, id))[0]![2] as string;
    for (const result of results.filter((r) => !r.changed))
      assert.match(
        result.message,
        new RegExp(
          `was already approved at gate sign1 by ${winner} at .*; nothing changed \\(it is blocked at gate sign2\\)`,
        ),
      );
    assert.equal(await decisions(root, id), [['gate.approved', 'sign1', winner]]);
    const stored = await createStore({ root }).get(id);
    assert.is(stored.status, 'blocked');
    assert.is(
      (stored.task.metadata.awaiting as { gate: string }).gate,
      'sign2',
      'the second gate still waits for its own approval',
    );
  },
);

races(
  'an approval and a rejection of the same gate at once decide it once; the other says it was not applied',
  async () => {
    const { root, id } = await setUpShip(startChild);
    await awaitingAt(root, id, 'sign1');
    const [approved, rejected] = await Promise.all([
      svcProcess(root, ['task', 'approve', id, '--gate', 'sign1', '--by', 'alice']),
      svcProcess(root, ['task', 'reject', id, '--gate', 'sign1', '--by', 'bob', '--note', 'not yet']),
    ]);
    const won = [approved, rejected].filter((answer) => answer.code === 0);
    assert.is(won.length, 1, JSON.stringify([approved, rejected]));
    const lost = approved.code === 0 ? rejected : approved;
    assert.match(
      lost.stderr,
      /was already (approved|rejected) at gate sign1 by (alice|bob) at .*: this (approval|rejection) was not applied/,
    );
    const made = await decisions(root, id);
    assert.is(made.length, 1, JSON.stringify(made));
    assert.equal(made[0]!.slice(1), ['sign1', approved.code === 0 ? 'alice' : 'bob']);
  },
);

races(
  'a waiting task moved by hand from blocked to ready still waits: listed, never dispatched, approved',
  async () => {
    const { root, env, id } = await setUpShip(startChild);
    await awaitingAt(root, id, 'sign1');
    const paths = toPaths(root);
    renameSync(paths.taskFile('blocked', id), paths.taskFile('ready', id));
    await within(
      10_000,
      async () =>
        JSON.parse((await runSvc(env, 'task', 'list', '--status', 'ready', '--json')).stdout).some(
          (row: { id: string }) => row.id === id,
        ),
      'the daemon to see it ready',
    );
    const listed = JSON.parse((await runSvc(env, 'task', 'list', '--awaiting', '--json')).stdout) as {
      id: string;
      status: string;
      awaiting: { gate: string };
    }[];
    assert.equal(
      listed.map((row) => [row.id, row.status, row.awaiting.gate]),
      [[id, 'ready', 'sign1']],
    );
    await afterPolls(root, 3);
    const plan = JSON.parse((await runSvc(env, 'scheduler', 'run', '--json')).stdout) as {
      actions: { kind: string; taskId: string; reason?: string }[];
    };
    assert.equal(
      plan.actions.filter((action) => action.taskId === id).map((action) => [action.kind, action.reason]),
      [['hold', 'approval']],
    );
    const held = await createStore({ root }).get(id);
    assert.is(held.status, 'ready', 'never dispatched');
    assert.is(held.task.lease, undefined);
    const approved = await runSvc(env, 'task', 'approve', id, '--gate', 'sign1', '--by', 'alice');
    assert.is(approved.code, 0, approved.stderr);
    assert.is(approved.stdout, `${id} approved at gate sign1: now blocked at gate sign2\n`);
    assert.equal(await decisions(root, id), [['gate.approved', 'sign1', 'alice']]);
  },
);

races.run();
