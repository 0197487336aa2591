import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../lib/store/commit/store.js';
import { call, closeDaemons, healthy, startChild } from '../helpers/daemon.js';
import { cleanRoots, tempRoot, within } from '../helpers/root.js';

// The daemon (`svc daemon run`) changes tasks under memory locks; writers outside it take lock directories.
const e2e = suite('e2e.tree-locks');
const outsiders = new Set<ReturnType<typeof spawn>>();
e2e.after.each(async () => {
  for (const child of outsiders) child.kill('SIGKILL');
  outsiders.clear();
  await closeDaemons();
  cleanRoots();
});

const script = fileURLToPath(new URL('../helpers/outside-writer.ts', import.meta.url));

/** A writer outside the daemon in a process of its own (test/helpers/outside-writer.ts). */
function outside(...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  outsiders.add(child);
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const printed = (line: string) =>
    within(30_000, () => lines.includes(line) || (child.exitCode !== null && Promise.reject(new Error(stderr))));
  return { lines, exited, printed, stderr: () => stderr };
}

type Reply = { status: number; body: { ok: boolean; result?: any; error?: { code: string } } };
const invoke = async (root: string, tool: string, params: unknown) =>
  (await call(root, 'POST', '/v1/tool/invoke', { tool, params })) as Reply;
const dispatch = async (root: string, title: string): Promise<string> =>
  (await invoke(root, 'svc_dispatch', { title, brief: title })).body.result.taskId;

e2e('16 concurrent changes of one task through the socket and 16 by a writer outside the daemon all land', async () => {
  const root = tempRoot();
  startChild(root);
  await healthy(root);
  const target = await dispatch(root, 'Target');
  const blockers = await Promise.all(Array.from({ length: 16 }, (_, i) => dispatch(root, `Blocker ${i}`)));
  const writer = outside('bump', root, target, '16');
  const replies = await Promise.all(
    blockers.map((blockerId) => invoke(root, 'svc_task_dep_add', { taskId: target, blockerId })),
  );
  assert.equal(
    replies.map((reply) => reply.body.ok),
    blockers.map(() => true),
  );
  assert.is(await writer.exited, 0, writer.stderr());
  const { task } = await createStore({ root }).get(target);
  assert.equal([...task.dependsOn].sort(), [...blockers].sort(), 'every dependency the daemon added is there');
  assert.is(task.metadata.count, 16, 'every change of the writer outside is there');
});

e2e('a lock directory held outside the daemon makes its change wait, then succeed', async () => {
  const root = tempRoot();
  startChild(root);
  await healthy(root);
  const id = await dispatch(root, 'Held');
  const writer = outside('hold', root, id, '1500');
  await writer.printed('held');
  const asked = Date.now();
  const reply = await invoke(root, 'svc_task_edit', { taskId: id, title: 'Edited' });
  assert.ok(reply.body.ok, JSON.stringify(reply.body));
  assert.ok(Date.now() - asked >= 1000, 'the change waited for the lock directory');
  assert.is((await createStore({ root }).get(id)).task.title, 'Edited');
});

e2e('a daemon SIGKILLed in the middle of a block and started again gives no id twice', async () => {
  const root = tempRoot();
  let daemon = startChild(root);
  await healthy(root);
  const ids = [];
  for (let i = 0; i < 5; i++) ids.push(await dispatch(root, `Before ${i}`));
  await daemon.kill();
  daemon = startChild(root);
  await healthy(root);
  const writer = outside('create', root, '30');
  const after = await Promise.all(Array.from({ length: 40 }, (_, i) => dispatch(root, `After ${i}`)));
  assert.is(await writer.exited, 0, writer.stderr());
  const all = [...ids, ...after, ...writer.lines.filter((line) => line.startsWith('id ')).map((line) => line.slice(3))];
  assert.is(all.length, 75);
  assert.is(new Set(all).size, 75, 'no id was handed out twice');
  const { tasks } = await createStore({ root }).list();
  assert.is(tasks.length, 75, 'one task per id');
});

e2e.run();
