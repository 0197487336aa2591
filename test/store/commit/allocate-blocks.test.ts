import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toIdDate } from '../../../lib/core/ids.js';
import { createBlockAllocator, ID_BLOCK } from '../../../lib/store/commit/allocate.js';
import { createStore } from '../../../lib/store/commit/store.js';
import { cleanRoots, tempRoot, within } from '../../helpers/root.js';

const blocks = suite('store.allocate-blocks');
const children = new Set<ReturnType<typeof spawn>>();
blocks.after.each(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  cleanRoots();
});

const script = fileURLToPath(new URL('../../helpers/outside-writer.ts', import.meta.url));

/** An allocator in a process of its own (test/helpers/outside-writer.ts): the ids it printed, and how it ended. */
function allocator(...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const ids: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (line.startsWith('id ')) ids.push(line.slice(3));
  });
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, ids, exited, stderr: () => stderr };
}

blocks('a block allocator and a one-at-a-time allocator racing for 500 ids never give one twice', async () => {
  const root = tempRoot();
  await createStore({ root }).init();
  const inBlocks = allocator('alloc-block', root, '250');
  const alone = allocator('alloc-one', root, '250');
  assert.is(await inBlocks.exited, 0, inBlocks.stderr());
  assert.is(await alone.exited, 0, alone.stderr());
  const all = [...inBlocks.ids, ...alone.ids];
  assert.is(all.length, 500);
  assert.is(new Set(all).size, 500, 'no id was handed out twice');
  const dir = `${root}/tasks/.seq/${toIdDate(new Date())}`;
  const made = readdirSync(dir).filter((name) => statSync(`${dir}/${name}`).isDirectory());
  assert.ok(made.length >= 250 / ID_BLOCK && made.length < 250, `about one directory per block (${made.length})`);
});

blocks('a block allocator killed mid-block and started again gives no id twice', async () => {
  const root = tempRoot();
  await createStore({ root }).init();
  const first = allocator('alloc-block', root, '100', '5');
  await within(
    30_000,
    () => first.ids.length === 5 || (first.child.exitCode !== null && Promise.reject(first.stderr())),
  );
  first.child.kill('SIGKILL');
  await first.exited;
  const again = allocator('alloc-block', root, '60');
  const alone = allocator('alloc-one', root, '60');
  assert.is(await again.exited, 0, again.stderr());
  assert.is(await alone.exited, 0, alone.stderr());
  const all = [...first.ids, ...again.ids, ...alone.ids];
  assert.is(new Set(all).size, all.length, 'no id was handed out twice');
  assert.is(all.length, 125);
});

blocks('16 allocations at once in one process share one block: one directory, consecutive numbers', async () => {
  const root = tempRoot();
  const store = createStore({ root });
  await store.init();
  const allocate = createBlockAllocator();
  const now = new Date();
  const ids = await Promise.all(Array.from({ length: 16 }, () => allocate(store.paths, now)));
  assert.is(new Set(ids).size, 16);
  const dir = `${root}/tasks/.seq/${toIdDate(now)}`;
  assert.equal(readdirSync(dir), [String(ID_BLOCK)], 'one block reserved, by its last number');
  assert.equal(
    ids.map((id) => Number(id.split('-').pop())).sort((a, b) => a - b),
    Array.from({ length: 16 }, (_, i) => i + 1),
  );
});

blocks.run();
