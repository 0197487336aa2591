import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATUSES } from '../../../lib/core/status.js';
import { isTempName, toTaskId } from '../../../lib/store/disk/paths.js';
import { readTaskFile } from '../../../lib/store/disk/task-file.js';
import { createStore } from '../../../lib/store/commit/store.js';
import type { BatchWriterJob } from '../../helpers/batch-writer.js';
import { svc } from '../../helpers/cli.js';
import { checkTree } from '../../helpers/invariants.js';
import { cleanRoots, tempRoot } from '../../helpers/root.js';

// A writer process of 16 concurrent changes SIGKILLed inside a batch, at each of its steps: every
// change it acknowledged is on disk once, no task file is partial, and what is left (a second copy,
// temporaries) is what `svc doctor --fix` and the next commit repair.
const POINTS: [point: string, temporariesLeft: boolean][] = [
  ['batch.temp-written', true], // some temporaries written and fsynced, others not yet
  ['batch.temps-written', true], // every temporary written, none renamed
  ['batch.renamed', true], // some renamed (old copies still there), the others still temporaries
  ['batch.synced', false], // all renamed and the directories fsynced, nothing answered
  ['commit.written', false], // answered to the commit, old copy not yet unlinked
];
const LANES = 8; // lanes moving a task; as many create: 16 changes at once

const crash = suite('store: a writer killed inside a batch');
crash.after.each(cleanRoots);

for (const [point, temporariesLeft] of POINTS) {
  crash(`killed at ${point}, it loses no acknowledged change and leaves no partial file`, async () => {
    const root = tempRoot();
    const store = createStore({ root });
    const ids: string[] = [];
    for (let i = 0; i < LANES; i++) ids.push((await store.create({ title: `Lane ${i}`, createdBy: 'test' })).task.id);
    const { lines, stderr, signal } = await runWriter({ root, ids, at: point, after: 40 });
    assert.is(signal, 'SIGKILL', `the writer ended by itself: ${stderr.slice(-1000)}`);
    assert.ok(lines.includes(`crash ${point}`), 'it crashed at the point');
    const moved = new Map<string, number>();
    const writing = new Map<string, number>();
    const created = lines.filter((line) => line.startsWith('created ')).map((line) => line.slice(8));
    for (const [what, id, step] of lines.map((line) => line.split(' '))) {
      if (what === 'moved') moved.set(id!, Math.max(moved.get(id!) ?? 0, Number(step)));
      if (what === 'writing') writing.set(id!, Math.max(writing.get(id!) ?? 0, Number(step)));
    }
    assert.ok(
      [...writing].some(([id, step]) => step > (moved.get(id) ?? 0)),
      'changes were in flight at the kill',
    );
    // As the crash left it: every task file whole, temporaries beside them only mid-batch.
    const { temps, broken } = await scan(root);
    assert.equal(broken, [], 'no task file is partial');
    if (temporariesLeft) assert.ok(temps.length > 0, 'the kill left a batch half done');
    const listed = await store.list();
    assert.equal(listed.invalid, [], 'readers ignore the temporaries');
    for (const id of created) assert.ok(await store.get(id), `acknowledged create ${id}`);
    for (const [id, step] of moved) {
      const onDisk = Number((await store.get(id)).task.metadata.step);
      assert.ok(onDisk >= step && onDisk <= writing.get(id)!, `${id} acknowledged at ${step}, ${onDisk} on disk`);
    }
    // The next commit of each lane finds its task once, where its newest copy is.
    for (const id of ids) {
      const { before } = await store.commit(id, (cur) => ({ task: cur.task, body: cur.body, status: cur.status }), 't');
      assert.ok(Number(before.task.metadata.step) >= (moved.get(id) ?? 0), `${id} is found at its newest step`);
    }
    const doctor = await svc(root, 'doctor', '--fix');
    assert.is(doctor.code, 0, doctor.stdout + doctor.stderr);
    const { violations } = await checkTree(root, [...ids, ...created]);
    assert.equal(violations, []);
    process.stdout.write(
      `  (${point}: ${lines.filter((line) => /^(moved|created) /.test(line)).length} acknowledged, ${temps.length} temporaries)\n`,
    );
  });
}

const writer = fileURLToPath(new URL('../../helpers/batch-writer.ts', import.meta.url));

/** Runs the batch writer until it kills itself (or ends otherwise); its lines and how it ended. */
function runWriter(job: BatchWriterJob): Promise<{ lines: string[]; stderr: string; signal: string | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, JSON.stringify(job)], { stdio: 'pipe' });
  let out = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGTERM'), 60_000); // a writer that never reaches the point
  return new Promise((resolve) =>
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      resolve({ lines: out.split('\n').filter(Boolean), stderr, signal });
    }),
  );
}

/** The temporaries in the status directories, and the task files that do not parse. */
async function scan(root: string): Promise<{ temps: string[]; broken: string[] }> {
  const { statusDir } = createStore({ root }).paths;
  const temps: string[] = [];
  const broken: Promise<string | null>[] = [];
  for (const status of STATUSES) {
    for (const name of readdirSync(statusDir(status))) {
      if (isTempName(name)) temps.push(name);
      else if (toTaskId(name)) {
        const path = `${statusDir(status)}/${name}`;
        broken.push(
          readTaskFile(path).then(
            () => null,
            (err: Error) => `${path}: ${err.message}`,
          ),
        );
      }
    }
  }
  return { temps, broken: (await Promise.all(broken)).filter((found): found is string => found !== null) };
}

crash.run();
